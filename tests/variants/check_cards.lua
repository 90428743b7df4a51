-- tests/check.rs: a rule that makes cards out of nothing (not from the bank).
variant { extends = "base", description = "cards fixture" }

on("rolled", "cards.gift", function(g, data)
  g:create(data.seat, "hand", "ore", 1)
end)
