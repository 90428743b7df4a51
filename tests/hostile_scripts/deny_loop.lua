-- Breach: `deny` outside a listing calls into Rust, which builds its reason and a table
-- at each call, uncharged.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    while true do deny("no") end -- stopped here
  end,
}
