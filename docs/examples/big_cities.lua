-- Big cities: a city is worth 3 victory points, and the game goes to 12.
variant {
  extends = "base",
  description = "CATAN where a city is worth 3 points; 12 points win.",
  -- Declaring an option the parent declared replaces it: here, a new default.
  options = {
    { name = "victory_points", type = "int", default = 12, min = 3, max = 40,
      doc = "points needed to win, during your own turn" },
  },
}

-- base.points counts 2 per city; the wrapper adds the third.
wrap_hook("base.points", function(original)
  return function(g, points, p, hidden)
    return original(g, points, p, hidden) + #g:pieces_of(p, "city")
  end
end)
