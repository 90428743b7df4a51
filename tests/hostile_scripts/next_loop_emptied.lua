-- Breach: a loop written `for k in next, t`, which the VM steps itself, over a table
-- of emptied slots: each step scans them all.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local t = {}
    for i = 1, 100000 do t[i] = true end
    for i = 1, 100000 do t[i] = nil end
    while true do for _ in next, t do end end -- stopped here
  end,
}
