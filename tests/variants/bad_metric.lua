-- tests/sim_compare.rs: a metric that is not a number is a clear error naming the hook.
variant { extends = "base" }

filter("metrics", "bad.metrics", function(g, m)
  m.road = "long"
  return m
end)
