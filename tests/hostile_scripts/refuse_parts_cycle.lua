-- tests/refusals.rs: parts that run each other in a cycle (first.lua -> second.lua ->
-- first.lua) are refused with the cycle.
variant { extends = "base", description = "a cycle of parts (refusal tests)" }
part("first.lua")
