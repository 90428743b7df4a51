-- Breach: storing a list that holds one table of emptied slots many times made the
-- engine walk every slot of it again for each entry, in Rust, within one call.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local empty = {}
    for i = 1, 50000 do empty[i] = true end
    for i = 1, 50000 do empty[i] = nil end
    local list = {}
    for i = 1, 50000 do list[i] = empty end
    g:set("shared", list) -- stopped here
  end,
}
