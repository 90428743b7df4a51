-- Breach: `string.find` is a Rust function around Lua's: each call crosses into Rust
-- and back (hundreds of machine instructions), but was charged only its pattern's work.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    while true do string.find("x", "x") end -- stopped here
  end,
}
