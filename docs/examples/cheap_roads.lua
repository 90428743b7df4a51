-- Cheap roads: early in the game a road costs one lumber only.
variant {
  extends = "base",
  description = "CATAN where roads cost only a lumber until a given turn.",
  options = {
    { name = "cheap_roads_until", type = "int", default = 12, min = 0, max = 1000,
      doc = "roads cost one lumber up to and including this turn" },
  },
}

-- base asks the "cost" filter for every price: (g, cards, what, seat) -> cards.
filter("cost", "cheap_roads.cost", function(g, cards, what, p)
  if what == "road" and g:turn() <= g:option("cheap_roads_until") then
    return { lumber = 1 }
  end
  return cards
end)

-- For `catan sim`: the roads standing when the game ends, all seats together, in every
-- game's row and in the report (beside base's longest_road and the counts of actions).
filter("metrics", "cheap_roads.metrics", function(g, m)
  local roads = 0
  for p = 1, g:players() do roads = roads + g:piece_count(p, "road") end
  m.roads_on_board = roads
  return m
end)
