-- Guard: keys that happen to collide at one size of a table (here multiples of 127,
-- which share a main position in a hash part of 128 nodes) still work: the table grows
-- past that size instead of chaining them, and every game gives the same result.
-- expect: same game
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    local t, sum = {}, 0
    for x = 1, 100 do t[x * 127 + 5] = x end
    for x = 1, 100 do sum = sum + t[x * 127 + 5] end
    local order = {}
    for k in next, t do order[#order + 1] = k end
    g:set("sum", sum)
    g:set("first", order[1])
  end,
}
