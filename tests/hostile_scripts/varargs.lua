-- Breach: `...` copies every extra argument, in C, for one instruction: a function
-- given a hundred thousand of them copies them all at every `...`.
-- expect: budget
variant { extends = "base" }

local function spin(...)
  while true do select("#", ...) end -- stopped here
end

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local t = {}
    for i = 1, 100000 do t[i] = i end
    spin(table.unpack(t))
  end,
}
