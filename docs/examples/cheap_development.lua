-- Cheap development cards (a house rule): a development card costs a grain and an ore,
-- no wool. The house rule of docs/modding.md's "Test your house rule": random bots and
-- bots that play for points answer "what does it change?" differently.
variant {
  extends = "base",
  description = "CATAN where a development card costs a grain and an ore (no wool).",
}

-- base asks the "cost" filter for every price: (g, cards, what, seat) -> cards.
filter("cost", "cheap_development.cost", function(g, cards, what)
  if what == "development" then
    return { grain = 1, ore = 1 }
  end
  return cards
end)
