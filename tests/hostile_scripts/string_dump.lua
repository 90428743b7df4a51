-- Breach: `string.dump` serializes a function in C, unmetered, and its output (byte
-- code) is nothing a rule can use: no `load` exists to run it.
-- expect: runtime
-- message: string.dump
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local function big(a, b, c) return a + b + c, { a, b, c }, function() return a end end
    while true do string.dump(big) end -- stopped here
  end,
}
