-- Breach: `string.packsize` reads its whole format in C, for one call.
-- expect: runtime
-- message: string.packsize
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local format = string.rep("i4", 100000)
    while true do string.packsize(format) end -- stopped here
  end,
}
