-- tests/sandbox.rs: a syntax error must be reported with this file and its line.
variant { extends = "base" }

local ok = 1
local broken = = 2 -- SYNTAX ERROR HERE
