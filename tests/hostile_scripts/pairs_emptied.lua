-- Breach: the sandbox's sorted `pairs` collects the keys in one C call, charged by the
-- keys it found (none), not by the emptied slots it scanned.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local t = {}
    for i = 1, 100000 do t[i] = true end
    for i = 1, 100000 do t[i] = nil end
    while true do for _ in pairs(t) do end end -- stopped here
  end,
}
