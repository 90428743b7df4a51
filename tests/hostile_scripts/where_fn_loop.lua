-- Breach: `__where_fn` crosses into Rust at each call and asks the VM where a function
-- is defined, uncharged.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    while true do __where_fn(print) end -- stopped here
  end,
}
