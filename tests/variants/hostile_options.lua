-- tests/sandbox.rs: an action whose option list never ends once the dice are rolled.
variant { extends = "base" }

action {
  name = "maze",
  syntax = "maze <int>",
  options = function(g, p)
    if g:phase() == "main" then while true do end end
    return {}
  end,
  apply = function(g, p, n) end,
}

-- From turn 2 on, its `when` tries to change the game while the legal actions are listed.
action {
  name = "sneak",
  syntax = "sneak",
  when = function(g, p)
    if g:turn() >= 2 then g:set("sneaked", true) end
    return false
  end,
  apply = function(g, p) end,
}
