-- tests/refusals.rs: a part that runs itself (refuse_parts_self/again.lua) is refused with
-- the cycle, not run until the C stack overflows.
variant { extends = "base", description = "a part that includes itself (refusal tests)" }
part("again.lua")
