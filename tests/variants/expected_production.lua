-- tests/victory_and_production.rs: base with each seat's `g:expected_production` read out
-- through the metrics filter (read-only), as "total.<seat>" and "<card>.<seat>".

variant {
  extends = "base",
  description = "base reading out each seat's expected production (tests)",
}

filter("metrics", "expected_production.read_out", function(g, m)
  for p = 1, g:players() do
    local total, by = g:expected_production(p)
    m["total." .. p] = total
    for card, n in pairs(by) do m[card .. "." .. p] = n end
  end
  return m
end)
