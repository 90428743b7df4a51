-- tests/victory_and_production.rs: a variant that changes production in Lua. Its cities
-- yield 3 (a `production` filter hook), so g:produce asks the hook for every producing
-- piece instead of counting alone.
variant {
  extends = "base",
  description = "CATAN whose cities yield 3 resource cards (tests)",
}

filter("production", "production_filter.cities", function(g, n, seat, piece, hex)
  if piece == "city" then return 3 end
  return n
end)
