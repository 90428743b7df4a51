-- Breach: `string.format` crosses into Rust and back at each call, charged only by its
-- arguments' size.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    while true do string.format("%d", 1) end -- stopped here
  end,
}
