-- Rivals for CATAN: what `catan sim` measures of each finished game, beside the engine's
-- counts of each kind of action (docs/api.md, the `metrics` filter).
-- A part of ../rivals.lua, run in the order it lists.

-- The most cards in play in one principality at the end: how far the winner (or the
-- leader, in a game cut off) built out.
filter("metrics", "rivals.metrics", function(g, m)
  local most = 0
  for p = 1, g:players() do most = math.max(most, g:grid_count(p, "principality")) end
  m.principality_cards = most
  return m
end)
