-- Breach: indexing a table with a key of a megabyte equal to one it holds (another
-- object) compares the two keys byte by byte in C, for one instruction.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local a = string.rep(string.rep("x", 1024), 1024)
    local b = string.rep(string.rep("x", 1024), 1024)
    local t = { [a] = true }
    while true do local _ = t[b] end -- stopped here
  end,
}
