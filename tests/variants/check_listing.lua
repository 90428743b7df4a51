-- tests/check.rs: an action whose options offer what its own legal check refuses.
variant { extends = "base", description = "listing fixture" }

action {
  name = "wave",
  phases = { "main" },
  syntax = "wave <int>",
  help = "wave (listed, then refused)",
  options = function(g, p) return { { 3 } } end,
  legal = function(g, p, n) return deny("waving is not allowed") end,
  apply = function(g, p, n) end,
}
