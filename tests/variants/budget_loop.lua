-- Not an attack: a plain loop that spends the whole instruction budget. The yardstick
-- tests/hostile_scripts.rs measures this machine's speed with, so that its bound on a
-- hostile script's CPU time is about the sandbox, not the machine.
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    local n = 0
    while true do n = n + 1 end
  end,
}
