-- Breach: arithmetic on a string converts it to a number first: a megabyte of digits is
-- read whole in C for one instruction.
-- expect: runtime
-- message: attempt to add
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local digits = string.rep(string.rep("7", 1024), 1024)
    local n = 0
    while true do n = n + digits end -- stopped here
  end,
}
