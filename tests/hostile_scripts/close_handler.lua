-- Breach: a to-be-closed variable whose `__close` never ends: when the budget error
-- unwound the action, mlua's count hook dropped the stack slots itself and the method
-- ran inside the hook, where no hook stops it: the engine hung.
-- expect: runtime
-- message: to-be-closed
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local guard <close> = setmetatable({}, { __close = function() while true do end end }) -- stopped here
    while true do end
  end,
}
