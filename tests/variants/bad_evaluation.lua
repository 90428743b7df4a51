-- tests/bots.rs: an evaluation that returns no number is a clear error, not a crash.
variant { extends = "base" }

filter("evaluate", "bad.evaluate", function(g, v, p) return "high" end)
