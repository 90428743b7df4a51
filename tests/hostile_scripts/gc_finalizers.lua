-- Breach: each `setmetatable` with `__gc` walks the collector's list of objects to move
-- the table to the finalized ones, in C: on many tables, work that grows with the heap
-- for one call each. (And finalizers run when the collector decides.)
-- expect: runtime
-- message: __gc
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local keep = {}
    for i = 1, 100000 do keep[i] = {} end
    for i = 1, 100000 do setmetatable(keep[i], { __gc = function() end }) end -- stopped here
  end,
}
