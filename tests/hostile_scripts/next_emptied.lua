-- Breach: `next` over a table whose slots were all emptied scans every empty slot in C,
-- and the budget charged each call as one instruction.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local t = {}
    for i = 1, 100000 do t[i] = true end
    for i = 1, 100000 do t[i] = nil end
    while true do next(t) end -- stopped here
  end,
}
