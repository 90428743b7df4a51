-- tests/bots.rs: base without its evaluation: bots fall back to the victory_points filter.
variant { extends = "base" }

remove_hook("base.evaluate")
