-- tests/action_shapes.rs: a mod changing a price base's `city` declares: 1 ore and 1 grain.
variant { extends = "base" }

filter("cost", "cheap_cities.cost", function(g, cards, what)
  if what == "city" then return { ore = 1, grain = 1 } end
  return cards
end)
