-- A house rule in several files (tests/parts.rs): base, with its rules in house/. Each part
-- gets `shared`; `part` returns what the part returns.
variant { extends = "base", description = "Base with a bonus point, written in parts." }

local shared = { bonus = 1 }
local bonus_of = part("points.lua", shared)
part("rules/bonus.lua", shared, bonus_of)
