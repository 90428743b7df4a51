-- tests/check.rs: a house rule with one of each mistake the lints find. It loads and plays.
variant { extends = "base", description = "lint fixture" }

-- A typo: nothing runs the filter point "costs" (base runs "cost").
filter("costs", "lint.cheap", function(g, cards) return cards end)

-- A global written while the game runs (the global environment is frozen by then).
on("rolled", "lint.count_rolls", function(g, data)
  rolls_seen = data.sum
end)

-- Iterating in `next` order and logging: the order differs between runs.
on("built", "lint.tell", function(g, data)
  for kind, n in next, g:cards(data.seat, "hand") do g:log(kind .. " " .. n) end
end)

-- Registered again under base's name: it silently replaces base's hook.
sequence("turn_begin", "base.paired_56", function(g, p) end)
