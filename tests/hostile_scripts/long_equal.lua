-- Breach: `==` on two equal strings of a megabyte (two objects: long strings are not
-- interned) compares every byte in C, for one instruction.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local a = string.rep(string.rep("x", 1024), 1024)
    local b = string.rep(string.rep("x", 1024), 1024)
    while true do local _ = a == b end -- stopped here
  end,
}
