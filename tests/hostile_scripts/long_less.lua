-- Breach: `<` on strings of a megabyte compares them in C (`strcoll`, then `strlen`),
-- for one instruction, even for the very same string.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local a = string.rep(string.rep("x", 1024), 1024)
    while true do local _ = a < a end -- stopped here
  end,
}
