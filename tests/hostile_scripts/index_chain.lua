-- Breach: a read through a chain of `__index` tables walks the whole chain in C (up to
-- Lua's 2000 links) for one instruction.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local top = {}
    local t = top
    for _ = 1, 1990 do
      local up = {}
      setmetatable(t, { __index = up })
      t = up
    end
    while true do local _ = top.missing end -- stopped here
  end,
}
