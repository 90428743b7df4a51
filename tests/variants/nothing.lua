-- The engine's own cost an action (src/README.md, "Speed"): one action that does almost
-- nothing, 300 times a game, so that `catan sim` measures the pipeline around the rules
-- (a bot's draw, the performance, the log) and next to none of the rules' own work.
variant { description = "an action that does almost nothing, 300 times (the pipeline's cost)", players = { min = 2, max = 4 } }

action {
  name = "pass",
  syntax = "pass",
  apply = function(g, p)
    local n = (g:get("passes") or 0) + 1
    g:set("passes", n)
    if n >= 300 then g:declare_winner(p) end
    g:set_turn(p % g:players() + 1)
  end,
}
