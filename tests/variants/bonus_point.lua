-- tests/pipeline.rs: every player counts one more victory point (the points filter is
-- wrapped, so the base count still applies).
variant { extends = "base" }

wrap_hook("base.points", function(original)
  return function(g, v, p, hidden)
    return original(g, v, p, hidden) + 1
  end
end)
