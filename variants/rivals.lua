-- Rivals for Catan (2010), the 2-player Introductory Game "The First Catanians", with every
-- clarification of the Basic Set card index (../shared/rules/004). Card data: the rulebook
-- plus ../shared/reference/rivals_cards.csv and rivals_setup.md. Rule comments cite the
-- rulebook section they follow.
--
-- A principality is a slot grid of the engine (`grids` below; docs/api.md, "Slot grids"):
-- 5 rows by 25 columns per player. Row 3 is the centre row (settlements, cities, roads),
-- rows 2 and 4 hold regions (odd columns) and building sites (even columns, above and below
-- a settlement or city), rows 1 and 5 hold a city's extra building sites (even columns) and,
-- for the Theme Sets, region expansions (odd columns). The starting principality occupies
-- columns K to O; each new settlement extends it by two columns left or right. Labels are
-- column letter + row number: red's rows are 1-5, blue's 6-10 (red's forest is K2, blue's
-- K7).
--
-- Every card is data (the `CARDS` table, exported as `rivals.cards` with `rivals.card{...}`
-- to add or change cards) plus named hooks. The Theme Sets fit in as child variants:
-- `placement = "city"` (city expansions) and `"region"` (region expansions) are already
-- understood by `sites`, `requires = function(g, p) ... end` is checked before a card is
-- built or played, `on_build` runs after a card is placed, and the filter points `tally`,
-- `cost`, `production`, `hand_limit`, `trade_ratio` and `sites` let a card change the
-- rules around it. For the Theme Games (rivals_theme.lua): an expansion with `stores = true`
-- and a `resource` holds resources like a region (the Gold Cache); the filters
-- `under_stacks` (which stacks a card may go under), `build_from` (game zones cards are
-- built from, besides the hand) and `removed_to` (where a removed card goes); the table
-- `rivals` exports the helpers a theme set calls instead of copying them.
--
-- Choices the rulebook leaves to the player but that change nothing a player could want
-- are made for them, and said so here: resources are paid from the region of that type
-- holding the most (ties: reading order) and received into the one holding the least that
-- has room, except where the rulebook or the card index names the player's choice (a
-- trade, the Goldsmith, the Mint, Mineral Mining, ...: `spend` and `store`,
-- rivals/dice.lua); the two regions of a new settlement drawn from the stack go above, then below;
-- the starting player's hand is drawn from stack 1, the other's from stack 2.

variant {
  description = "Rivals for Catan: the Introductory Game \"The First Catanians\" (2 players, 7 points), "
    .. "with every Basic Set card.",
  players = { min = 2, max = 2, default = 2 },
  colors = { "red", "blue" },
  cards = {
    resource = { "brick", "grain", "wool", "lumber", "ore", "gold" },
    region = {
      "forest_2", "forest_3", "forest_4", "forest_6",
      "gold_field_1", "gold_field_2", "gold_field_3", "gold_field_4",
      "fields_1", "fields_3", "fields_5", "fields_6",
      "hills_1", "hills_2", "hills_3", "hills_5",
      "pasture_1", "pasture_4", "pasture_5", "pasture_6",
      "mountains_2", "mountains_4", "mountains_5", "mountains_6",
    },
    center = { "road", "settlement", "city" },
    expansion = {
      "abbey", "marketplace", "parish_hall", "storehouse", "toll_bridge",
      "brick_factory", "grain_mill", "iron_foundry", "lumber_camp", "weavers_shop",
      "brick_ship", "grain_ship", "lumber_ship", "wool_ship", "ore_ship", "gold_ship", "large_trade_ship",
      "austin", "candamir", "harald", "inga", "osmund", "siglind",
    },
    action = { "brigitta", "goldsmith", "merchant_caravan", "relocation", "scout" },
    event = {
      "feud", "fraternal_feuds", "invention", "trade_ships_race", "traveling_merchant", "year_of_plenty", "yule",
    },
  },
  zones = {
    { name = "hand", owner = "player", visibility = "owner" },
    -- Centre cards, face up between the principalities (Other Preparations 1-2).
    { name = "roads", owner = "game", visibility = "public", title = "road stack" },
    { name = "settlements", owner = "game", visibility = "public", title = "settlement stack" },
    { name = "cities", owner = "game", visibility = "public", title = "city stack" },
    { name = "regions", owner = "game", stack = true, visibility = "hidden", title = "region stack" },
    -- The four draw stacks of the Introductory Game (Other Preparations 3).
    { name = "stack1", owner = "game", stack = true, visibility = "hidden", title = "draw stack 1" },
    { name = "stack2", owner = "game", stack = true, visibility = "hidden", title = "draw stack 2" },
    { name = "stack3", owner = "game", stack = true, visibility = "hidden", title = "draw stack 3" },
    { name = "stack4", owner = "game", stack = true, visibility = "hidden", title = "draw stack 4" },
    { name = "events", owner = "game", stack = true, visibility = "hidden", title = "event card stack" },
    -- The event card being resolved (and, while the deck is rebuilt, the whole deck).
    { name = "revealed", owner = "game", visibility = "public", title = "event card revealed" },
    -- Played action cards (Action Cards: "a discard pile used by both players").
    { name = "discard", owner = "game", stack = true, visibility = "public", title = "discard pile" },
  },
  grids = {
    { name = "principality", owner = "player", rows = 5, cols = 25 },
  },
  -- Cards put face down under a stack, taken from a searched stack, or picked from the
  -- opponent's hand: the others do not see which.
  secret_actions = { "discard", "exchange", "take", "pick" },
  options = {
    { name = "victory_points", type = "int", default = 7, min = 3, max = 30,
      doc = "points needed at the end of your turn to win (The Goal & End of the Game)" },
    { name = "test_edits", type = "bool", default = false,
      doc = "enable the `edit ...` commands that set up positions (for tests and teaching)" },
  },
  -- What the bots' named features (rivals/evaluation.lua, the `features` filter) mean to a
  -- player: `hint` gives its reasons in these words.
  feature_titles = {
    strength = "strength points (toward the strength advantage)",
    commerce = "commerce points (toward the trade advantage)",
    skill = "skill points",
    progress = "progress points",
    stored = "resources stored in your regions",
    regions = "regions in your principality",
    sites = "settlement sites your roads open",
    near = "how near your stores are to paying for your next build",
  },
}


-- The rules are in variants/rivals/, one part per section of the rulebook (docs/modding.md,
-- "A variant in several files"). They run in this order, which is the order their hooks and
-- actions are registered in; `shared` passes the helpers of each part to the parts after it.
local shared = {}
part("cards.lua", shared)          -- the constants and every card of the Basic Set
part("principality.lua", shared)   -- small helpers, the geometry of a principality, points and resources
part("advantages.lua", shared)     -- the strength and trade advantages, victory points
part("setup.lua", shared)          -- the set-up and who starts
part("dice.lua", shared)           -- resolving the dice: the queue of steps, production, the event die
part("event_cards.lua", shared)    -- the event cards, and the exports for the Theme Sets
part("rolling.lua", shared)        -- the roll, Brigitta, and the choices while the dice are resolved
part("building.lua", shared)       -- building roads, settlements, cities and expansions
part("action_cards.lua", shared)   -- playing action cards
part("trading.lua", shared)        -- trading with the bank
part("end_of_turn.lua", shared)    -- the end of the turn: replenishing, exchanging, winning; more exports
part("editing.lua", shared)        -- moves for setting up positions (option test_edits)
part("evaluation.lua", shared)     -- how good a position is, for the bots
part("metrics.lua", shared)        -- what `catan sim` measures of a finished game
