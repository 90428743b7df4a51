-- Breach: the engine's `__debug_print` (behind `print`) wrote a megabyte to the
-- terminal for one call, uncharged.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local s = string.rep(string.rep("x", 1024), 1024)
    while true do __debug_print(s) end -- stopped here
  end,
}
