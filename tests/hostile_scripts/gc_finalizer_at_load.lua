-- Breach: a finalizer that never ends, set while the variant loads, hung the engine
-- whenever the collector ran it: at load, in any action, at exit (`catan play`, `check`
-- and even `variants` over a folder holding this file).
-- expect: load
-- when: load
-- message: __gc
variant { extends = "base" }

setmetatable({}, { __gc = function() while true do end end }) -- stopped here
