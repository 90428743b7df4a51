-- Rivals for Catan, "The Duel of the Princes" (../shared/rules/004, "THE DUEL OF THE
-- PRINCES"): the Basic Set with all three theme sets (rivals_gold.lua, rivals_turmoil.lua,
-- rivals_progress.lua, each with all its rules), and only these changes to the preparation
-- and the goal:
--
--   Draw stacks      3 Basic Set stacks of 12 and one stack per theme set (4 Gold, 5
--                    Turmoil, 6 Progress) of its cards without the half moon; the face-up
--                    cards (Merchant Guild, Hedge Tavern, University) are shuffled in, so
--                    there is no face-up stack
--   Event deck       the 6 events without the half moon (Yule, Invention, Year of Plenty,
--                    Riots, Traveling Merchant, Plague) and 6 drawn at random from the 15
--                    with it, Yule over 3 cards
--   Goal             13 points during your own turn
--
-- The half-moon cards left out stay in the zone `out_of_play`, unseen.

variant {
  extends = { "rivals_gold", "rivals_turmoil", "rivals_progress" },
  description = "Rivals for Catan: \"The Duel of the Princes\" (2 players, 13 points): the Basic Set with "
    .. "the three theme sets, without their half-moon cards.",
  zones = {
    { name = "stack6", owner = "game", stack = true, visibility = "hidden", title = "draw stack 6" },
    { name = "out_of_play", owner = "game", visibility = "hidden" },
  },
  options = {
    { name = "victory_points", type = "int", default = 13, min = 3, max = 30,
      doc = "points that win at once during your own turn (The Duel of the Princes: 13)" },
  },
}

local R = rivals

R.STACKS[6] = "stack6"
R.edit_zones[#R.edit_zones + 1] = "out_of_play"

-- The Basic Set's event cards with the half moon (rivals_cards.csv).
local BASIC_HALF_MOON = { feud = 1, fraternal_feuds = 1, trade_ships_race = 1, traveling_merchant = 1, year_of_plenty = 1 }
local RANDOM_EVENTS = 6

R.duel_rules = {
  -- Called by rivals_theme's set-up once the Basic Set stacks are dealt; `kinds_list(copies,
  -- out)` lists the cards of `copies` less those of `out`.
  stacks = function(g, kinds_list)
    for i, set in ipairs(R.themes) do
      local cards = R.copy(set.draw)
      for kind, n in pairs(set.faceup) do cards[kind] = (cards[kind] or 0) + n end
      local stack = R.STACKS[3 + i]
      for _, kind in ipairs(g:shuffled(kinds_list(cards, set.half_moon))) do g:create(nil, stack, kind, 1) end
      for kind, n in pairs(set.half_moon) do
        if (cards[kind] or 0) > 0 then g:create(nil, "out_of_play", kind, n) end
      end
    end
    -- The Event Card Stack: every event card gathered, the half-moon ones apart.
    for _, kind in ipairs(g:cards(nil, "events")) do g:move(nil, "events", nil, "revealed", kind) end
    local half = R.copy(BASIC_HALF_MOON)
    for _, set in ipairs(R.themes) do
      for kind, n in pairs(set.events) do
        g:create(nil, "revealed", kind, n)
        half[kind] = (half[kind] or 0) + (set.half_moon[kind] or 0)
      end
    end
    local pool = kinds_list(half)
    for _, kind in ipairs(pool) do g:move(nil, "revealed", nil, "out_of_play", kind) end
    for i, kind in ipairs(g:shuffled(pool)) do
      if i <= RANDOM_EVENTS then g:move(nil, "out_of_play", nil, "revealed", kind) end
    end
    R.build_event_deck(g)
  end,
}

-- Evaluation (bots) -------------------------------------------------------------------------

-- The Duel runs to 13 points, and the road, settlement and city stacks can run out before
-- it ends: then points come only from expansions (the advantages, skill and progress,
-- printed points). `rivals.evaluate` weighs an expansion in hand whose price the stores
-- cover at 0.3 (how near they are to a build) and one built at 0.05 and its points, less
-- the resources paid: two planners kept a grain mill in hand for hundreds of turns rather
-- than build it, and the game never ended. Here a building site filled is worth more than
-- the card in hand and its price in store. (A wrapper of the Duel's own: the theme sets'
-- tuned weights stay keyed to their rules.)
local BUILT = 0.5

filter("evaluate", "rivals_duel.evaluate", function(g, v, p)
  if g:winner() then return v end
  local n = 0
  for _, s in ipairs(R.placed(g, p)) do
    local d = s.def
    if d and d.cost and d.placement then n = n + 1 end
  end
  return v + BUILT * n
end)
