-- Breach: `__mode` written into a metatable after `setmetatable` made the table weak
-- all the same, so the collector stayed observable: how many allocations it took for
-- a key to vanish depended on the garbage earlier calls (listings) left.
-- expect: same game
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    local mt = {}
    local seen = setmetatable({}, mt)
    mt.__mode = "k"
    seen[{}] = true
    local steps = 0
    while next(seen) ~= nil and steps < 100000 do
      local _ = { steps, steps + 1, steps + 2 }
      steps = steps + 1
    end
    g:set("steps", steps)
  end,
}
