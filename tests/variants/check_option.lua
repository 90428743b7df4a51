-- tests/check.rs: a rule reading an option nobody declared (the error keeps its line).
variant { extends = "base", description = "option fixture" }

filter("cost", "option.cheap_roads", function(g, cards, what)
  if what == "road" and g:option("roads_cost") then return { lumber = 1 } end
  return cards
end)
