-- Breach: the fourth value of a generic `for` is closed when the loop ends, or when an
-- error unwinds it: the same `__close` that ran unstopped inside the count hook.
-- expect: runtime
-- message: to-be-closed
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local closing = setmetatable({}, { __close = function() while true do end end })
    for _ in next, {}, nil, closing do end -- stopped here
    while true do end
  end,
}
