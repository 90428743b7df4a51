-- Breach: a write through a chain of `__newindex` tables walks the whole chain in C for
-- one instruction.
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
      setmetatable(t, { __newindex = up })
      t = up
    end
    while true do top.x = 1 end -- stopped here
  end,
}
