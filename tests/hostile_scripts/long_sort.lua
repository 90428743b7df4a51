-- Breach: `table.sort` was charged by the elements it moves, but each comparison of two
-- long strings reads them whole (`strcoll`): one call, gigabytes compared.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local kb = string.rep("x", 1024)
    local list = {}
    for i = 1, 30 do list[i] = string.rep(kb, 256) end -- equal strings, each its own object
    for i = 31, 2000 do list[i] = list[i % 30 + 1] end
    while true do table.sort(list) end -- stopped here
  end,
}
