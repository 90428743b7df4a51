-- A part in a folder of the variant's folder: the first seat scores the bonus.
local shared, bonus_of = ...
assert(shared.seen == "points.lua", "the parts share one table")
filter("victory_points", "house.bonus", function(g, v, p) return v + bonus_of(g, p) end)
