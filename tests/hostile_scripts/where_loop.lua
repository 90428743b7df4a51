-- Breach: `__where`, the engine's helper behind `deny`, crosses into Rust and reads
-- the call stack at each call, uncharged.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    while true do __where(1) end -- stopped here
  end,
}
