-- CATAN: what `catan sim` measures of each finished game, beside the engine's own counts
-- of each kind of action (`actions.robber` counts the robber's moves, `actions.trade`
-- the trades). docs/modding.md, "Test your house rule", shows them in a report.
-- A part of ../base.lua, run in the order it lists.

-- The longest road on the board at the end, whoever holds the card (Longest Road needs
-- 5), and the largest army: the most knights played face up by one seat, read from the
-- `describe` filter so that an edition with its own army (classic's soldiers) is counted
-- as it shows it.
filter("metrics", "base.metrics", function(g, m)
  local road, army = 0, 0
  for p = 1, g:players() do
    road = math.max(road, g:longest_trail(p, "road"))
    local info = g:filter("describe", {}, p)
    army = math.max(army, info.army or info.knights or 0)
  end
  m.longest_road = road
  m.largest_army = army
  return m
end)
