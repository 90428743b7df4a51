-- tests/sandbox.rs: a setup hook that never ends must fail Game::new, not hang it.
variant { extends = "base" }

sequence("setup", "setup_loop.forever", function(g)
  while true do end
end)
