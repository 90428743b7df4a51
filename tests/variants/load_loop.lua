-- tests/sandbox.rs: top-level code that never ends must fail the load, not hang it.
variant { extends = "base" }

local n = 0
while true do n = n + 1 end
