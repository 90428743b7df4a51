-- Breach attempt: garbage made while a table of a million and a half entries is kept
-- and written to, so that every collection walks it again (the collector's work is not
-- charged, only the allocations that drive it): it must stay bounded all the same.
-- expect: budget
-- budget: 20000000
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local big = {}
    for i = 1, 1500000 do big[i] = i end
    local i = 0
    while true do i = i + 1; big[i % 1500000 + 1] = {} end -- stopped here
  end,
}
