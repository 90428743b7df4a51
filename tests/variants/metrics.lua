-- tests/sim_compare.rs: a declared metric reaches the rows, the report and a comparison.
-- `final_turn` is the game's last turn (the row's `turns` too); `bank_ore` differs from
-- game to game.
variant { extends = "base" }

filter("metrics", "metrics.final", function(g, m)
  m.final_turn = g:turn()
  m.bank_ore = g:count(nil, "bank", "ore")
  return m
end)
