-- CATAN, 3-4 players: the 25th Anniversary Edition Game Rules with every clarification of
-- the Almanac (../shared/rules/003). Rule comments cite the rulebook section they follow.
-- With 5-6 players, the 5-6 player game: see its part, base/5_6_players.lua.
--
-- Every hook and action here is named "base.*" (hooks) or by its command (actions), so a
-- child variant can wrap, replace or remove any of them: see docs/modding.md.
-- Sequence points a child can hook: setup, turn_begin (seat), turn_end (seat), and the
-- engine's after_action (seat, action name).

variant {
  description = "CATAN (25th Anniversary rules and Almanac), 3-4 players, and 5-6 players with the "
    .. "5-6 Player Extension. The beginner board's terrain, numbers and harbors are the printed ones; "
    .. "its starting pieces are a balanced stand-in (the printed ones are not in our sources).",
  players = { min = 3, max = 6, default = 4 },
  -- Seat order; with 3 players red sits out (Set-up: "nobody plays the red position").
  -- Green and brown are the 5-6 Player Extension's colours.
  colors = { "red", "blue", "white", "orange", "green", "brown" },
  cards = {
    resource = { "brick", "lumber", "wool", "grain", "ore" },
    development = { "knight", "victory_point", "road_building", "year_of_plenty", "monopoly" },
  },
  zones = {
    { name = "bank", owner = "game", visibility = "public" },
    { name = "deck", owner = "game", stack = true, visibility = "hidden", title = "development deck" },
    -- Played progress cards leave the game ("toss it in the box").
    { name = "box", owner = "game", visibility = "public", title = "progress cards played" },
    { name = "hand", owner = "player", visibility = "count", title = "resource cards" },
    -- Development cards in hand; bought this turn ones wait in dev_new.
    { name = "dev", owner = "player", visibility = "owner", title = "development cards" },
    { name = "dev_new", owner = "player", visibility = "owner", title = "bought this turn (playable from your next turn)" },
    -- Knights played stay face up in front of their owner.
    { name = "played", owner = "player", visibility = "public", title = "knights played" },
  },
  -- `yields`: the resource cards a piece receives when a hex it borders produces.
  pieces = {
    { name = "road", on = "path", supply = 15 },
    { name = "settlement", on = "intersection", supply = 5, yields = 1 },
    { name = "city", on = "intersection", supply = 4, yields = 2 },
  },
  terrains = {
    { name = "hills", produces = "brick" },
    { name = "forest", produces = "lumber" },
    { name = "pasture", produces = "wool" },
    { name = "fields", produces = "grain" },
    { name = "mountains", produces = "ore" },
    { name = "desert" },
  },
  -- Resource Production (The Turn in Detail, 1.; Almanac: Resource Production): each hex
  -- of the number rolled yields its terrain's resource to the pieces on its corners (see
  -- `yields`), the hex under the robber nothing; the bank pays each resource only if it
  -- has enough for everyone, unless one player alone is owed it (option
  -- shortage_exception): that player takes what is left. Counted and paid by `g:produce`.
  production = { from = "bank", to = "hand", blocked_by = "robber", shortage_exception = "shortage_exception" },
  options = {
    { name = "victory_points", type = "int", default = 10, min = 3, max = 30,
      doc = "points needed to win, during your own turn (Ending the Game)" },
    { name = "board", type = "choice", choices = { "beginner", "variable", "random", "stand_in" }, default = "beginner",
      doc = "beginner map; variable set-up (random terrain and harbors, tokens A-R in a spiral); "
        .. "fully random tokens with no adjacent 6/8 (Set-up, Variable). With 5-6 players the printed "
        .. "beginner map is not in our sources: beginner means variable (tokens A-Zc), and stand_in is a "
        .. "fixed 5-6 map and starting pieces of our own" },
    { name = "starting_pieces", type = "bool", default = true,
      doc = "on the beginner (or 5-6 stand_in) map, start from fixed pieces instead of the two set-up rounds" },
    { name = "turn_structure", type = "choice", choices = { "special_building", "paired" }, default = "special_building",
      players = { min = 5, max = 6 },
      doc = "5-6 players: special_building (25th Anniversary 5-6 Player Rules: after each turn the others "
        .. "build in turn from their hands) or paired (CATAN 5-6 Player Expansion, newest rules: player 1's "
        .. "turn, then an action phase of player 2, the third player to the left)" },
    { name = "combined_trade_build", type = "bool", default = true,
      doc = "Almanac, Combined Trade/Build Phase; false: trade first, then build" },
    { name = "robber_desert", type = "bool", default = true,
      doc = "the robber may be moved to the desert" },
    { name = "shortage_exception", type = "bool", default = true,
      doc = "Resource Production: a shortage that affects one player gives that player what is left" },
    { name = "discard_limit", type = "int", default = 7, min = 0, max = 99,
      doc = "on a 7, players holding more than this many resource cards discard half" },
    { name = "longest_road_tie", type = "choice", choices = { "holder_keeps", "set_aside" }, default = "holder_keeps",
      doc = "a settlement breaks the holder's road and the longest roads tie: holder_keeps (Almanac, Longest Road, "
        .. "Special Case: a holder still tied keeps it) or set_aside (Family FAQ, older rules: aside, holder "
        .. "included, until one player alone has the longest road)" },
    { name = "first_player", type = "int", default = 0, min = 0, max = 6,
      doc = "seat that takes the first turn (the rulebook's oldest or youngest player); 0: the first seat "
        .. "with fixed starting pieces, the highest start roll in the set-up rounds" },
    { name = "three_player_out", type = "choice", choices = { "red", "blue", "white", "orange" }, default = "red",
      doc = "with 3 players, the colour nobody plays (Setting Up: red; Family Edition: orange)" },
  },
  -- What the bots' named features (base/evaluation.lua, the `features` filter) mean to a
  -- player: `hint` gives its reasons in these words.
  feature_titles = {
    ["near.city"] = "your hand's progress toward a city",
    ["near.settlement"] = "your hand's progress toward a settlement",
    ["near.development"] = "your hand's progress toward a development card",
    ["near.road"] = "your hand's progress toward a road",
    over_limit = "resource cards over the discard limit (at risk on a 7)",
  },
}

-- The rules are in variants/base/, one part per section of the rulebook (docs/modding.md,
-- "A variant in several files"). They run in this order, which is the order their hooks and
-- actions are registered in; `shared` passes the helpers of each part to the parts after it.
local shared = {}
part("components.lua", shared)            -- resources, boards, number tokens, development deck, costs
part("small_helpers.lua", shared)         -- small helpers: cards, prices (the cost filter), phases
part("setup.lua", shared)                 -- board, supply, starting pieces or set-up rounds; who acts
part("points.lua", shared)                -- victory points, Longest Road, Largest Army, winning
part("building.lua", shared)              -- refusals, `catan`; settlements, roads, cities, buying
part("production_and_robber.lua", shared) -- the roll, production; a 7: discards, the robber
part("development_cards.lua", shared)     -- playing knights and progress cards
part("trade.lua", shared)                 -- maritime and domestic trade
part("end_of_turn.lua", shared)           -- ending the turn
part("5_6_players.lua", shared)           -- 5-6 players: Special Building Phase or paired turns
part("evaluation.lua", shared)            -- how good a position is, for the bots
part("metrics.lua", shared)               -- what `catan sim` measures of a finished game
