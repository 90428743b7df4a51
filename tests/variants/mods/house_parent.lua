-- tests/check.rs: a parent kept beside the mod that extends it (found there by name).
variant { extends = "base", description = "a parent beside its child" }
filter("cost", "house_parent.cheap_roads", function(g, cards, what)
  if what == "road" then return { lumber = 1 } end
  return cards
end)
