-- Breach attempt: the longest chain a table may hold (8 keys of one main position:
-- multiples of 7 in a hash part of 8 nodes), walked whole by each lookup of another
-- such key.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local t = {}
    for i = 1, 8 do t[i * 7] = true end
    while true do local _ = t[0] end -- stopped here
  end,
}
