-- Breach: the prelude's own entry points were a global (`__engine`), and each
-- `__engine.perform` started a fresh budget: a loop of them never ended.
-- expect: runtime
-- message: __engine
variant { extends = "base" }

action {
  name = "burn",
  apply = function(g, p)
    local x = 0
    for i = 1, 100000 do x = x + i end
  end,
}

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    while true do __engine.perform(g, p, "burn", true, false) end -- stopped here
  end,
}
