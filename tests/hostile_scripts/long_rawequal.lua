-- Breach: `rawequal` on two equal strings of a megabyte compares every byte in C.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local a = string.rep(string.rep("x", 1024), 1024)
    local b = string.rep(string.rep("x", 1024), 1024)
    while true do rawequal(a, b) end -- stopped here
  end,
}
