-- Breach: `tonumber` on a megabyte of digits reads them all in C (several times), for
-- one call.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local digits = string.rep(string.rep("7", 1024), 1024)
    while true do tonumber(digits) end -- stopped here
  end,
}
