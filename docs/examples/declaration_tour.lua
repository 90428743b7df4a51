-- A tour of the declaration: every field of variant { ... }, on top of base. It adds
-- vocabulary no rule uses yet, and changes one thing of play: a kinder discard limit.
variant {
  extends = "base",                 -- or a list: { "base", "friendly_robber" }
  description = "Base CATAN plus one of every kind of declaration (a tour for modders).",
  players = { min = 3, max = 4, default = 4 },
  colors = { "red", "blue", "white", "orange" },  -- seat order; replaces the parent's list
  cards = {
    commodity = { "cloth", "coin" },  -- new kinds in a new category
  },
  zones = {
    { name = "market", owner = "game", visibility = "public" },
    { name = "vault", owner = "player", visibility = "owner" },
    { name = "events", owner = "game", stack = true, visibility = "hidden" },
  },
  pieces = {
    { name = "ship", on = "path", supply = 15 },
  },
  terrains = {
    { name = "sea" },                                  -- produces nothing
    { name = "gold_field", produces = "coin" },
  },
  options = {
    { name = "discard_limit", type = "int", default = 9, min = 0, max = 99,
      doc = "on a 7, players holding more than this many resource cards discard half" },
    { name = "tour_flag", type = "bool", default = false, doc = "a switch (true/false)" },
    { name = "tour_mode", type = "choice", choices = { "calm", "wild" }, default = "calm",
      doc = "one of a list of words" },
    { name = "tour_motto", type = "text", default = "trade wisely", doc = "any text" },
  },
}

-- Cards of the new kinds start in the game's market.
sequence("setup", "declaration_tour.market", function(g)
  g:create(nil, "market", "cloth", 5)
  g:create(nil, "market", "coin", 5)
end)
