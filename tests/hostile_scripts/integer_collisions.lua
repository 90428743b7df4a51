-- Breach: integer keys hash by a fixed rule (the key modulo the hash part's size less
-- one), so keys that are multiples of it all fall in one chain: looking up another such
-- key walks the whole chain in C, for one instruction.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local t = {}
    local m = (1 << 15) - 1
    for i = 1, 1 << 15 do t[i * m] = true end
    while true do local _ = t[0.5] or t[-m] end -- stopped here
  end,
}
