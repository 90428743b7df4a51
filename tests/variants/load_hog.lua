-- tests/sandbox.rs: top-level code that allocates without end must fail the load.
variant { extends = "base" }

local t, chunk = {}, string.rep("y", 1 << 20)
for i = 1, 100000 do t[i] = chunk .. i end
