-- tests/cached.rs: g:cached keeps a derived value while what it reads is unchanged.
variant {
  description = "a tableau for testing g:cached",
  players = { min = 2, max = 2, default = 2 },
  colors = { "red", "blue" },
  cards = { tile = { "star" } },
  zones = { { name = "pile", owner = "game", stack = true, visibility = "hidden" } },
  grids = {
    { name = "yard", owner = "player", rows = 1, cols = 2 },
    { name = "market", owner = "game", rows = 1, cols = 1 },
  },
}

-- How many times it ran, the tests ask the engine (`Game::cached_computations`): a rule's
-- variables are fixed once the variants are loaded.
local function yard_store(g, p)
  local busy = 0 -- work worth charging (src/engine.rs tests: a kept value costs the same)
  for i = 1, 100 do busy = busy + i end
  return { g:store(p, "yard", 1, 1), busy }
end

sequence("setup", "cached.setup", function(g)
  for p = 1, 2 do
    g:create_card(p, "yard", 1, 1, "star")
    g:set_store(p, "yard", 1, 1, p)
  end
  g:create_card(nil, "market", 1, 1, "star")
  g:set_phase("play")
end)

local READS = {
  whole = nil, grids = "grids", seat_grids = "seat_grids", seat_cards = "seat_cards", constants = "constants",
  board = "board",
}

-- look <word>: asks twice for red's yard store, reading as the word says; records the
-- value and logs the count of computations so far.
action {
  name = "look",
  syntax = "look <word>",
  apply = function(g, p, how)
    local a = g:cached(yard_store, 1, READS[how])
    local b = g:cached(yard_store, 1, READS[how]) -- BAD READS HERE
    if a ~= b then error("two asks in a row gave two values") end
    g:set("value", a[1])
  end,
}

-- store <number> <number>: sets the store of a seat's yard (a grid write).
action {
  name = "store",
  syntax = "store <number> <number>",
  apply = function(g, p, seat, n) g:set_store(seat, "yard", 1, 1, n) end,
}

-- market <number>: sets the game's market store (a grid of no seat).
action {
  name = "market",
  syntax = "market <number>",
  apply = function(g, p, n) g:set_store(nil, "market", 1, 1, n) end,
}

-- spoil <number>: sets red's store, reads it through the cache, then fails: the action is
-- undone, and so must be what the cache kept.
action {
  name = "spoil",
  syntax = "spoil <number>",
  apply = function(g, p, n)
    g:set_store(1, "yard", 1, 1, n)
    g:cached(yard_store, 1, "seat_grids")
    error("spoiled on purpose")
  end,
}

-- take <number>: the top card of a seat's yard goes to the pile (a card moved).
action {
  name = "take",
  syntax = "take <number>",
  apply = function(g, p, seat) g:take_card(seat, "yard", 1, 1, nil, "pile") end,
}

-- note: a write outside the grids.
action {
  name = "note",
  syntax = "note",
  apply = function(g) g:set("noted", true) end,
}

filter("to_act", "cached.to_act", function(g) return 1 end)
