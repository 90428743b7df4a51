-- tests/check.rs: replacing a hook that does not exist fails at load, with its line.
variant { extends = "base", description = "replace fixture" }

replace_hook("base.price_list", function(g, cards) return cards end)
