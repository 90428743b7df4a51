-- CATAN, 3-4 players: the 25th Anniversary Edition Game Rules with every clarification of
-- the Almanac (../shared/rules/003). Rule comments cite the rulebook section they follow.
-- With 5-6 players, the 5-6 player game: see its section at the end of this file.
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
  pieces = {
    { name = "road", on = "path", supply = 15 },
    { name = "settlement", on = "intersection", supply = 5 },
    { name = "city", on = "intersection", supply = 4 },
  },
  terrains = {
    { name = "hills", produces = "brick" },
    { name = "forest", produces = "lumber" },
    { name = "pasture", produces = "wool" },
    { name = "fields", produces = "grain" },
    { name = "mountains", produces = "ore" },
    { name = "desert" },
  },
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
}

local RESOURCES = { "brick", "lumber", "wool", "grain", "ore" }
local IS_RESOURCE = { brick = true, lumber = true, wool = true, grain = true, ore = true }
local RESOURCE_INDEX = { brick = 1, lumber = 2, wool = 3, grain = 4, ore = 5 }

-- Board data ---------------------------------------------------------------------------

-- Starting Set-up for Beginners (Illustration A): hexes in reading order with axial
-- coordinates, numbers, and the nine harbors (../shared/reference/catan_boards.md, B1).
local BEGINNER_HEXES = {
  { q = 0, r = -2, terrain = "mountains", number = 10 },
  { q = 1, r = -2, terrain = "pasture", number = 2 },
  { q = 2, r = -2, terrain = "forest", number = 9 },
  { q = -1, r = -1, terrain = "fields", number = 12 },
  { q = 0, r = -1, terrain = "hills", number = 6 },
  { q = 1, r = -1, terrain = "pasture", number = 4 },
  { q = 2, r = -1, terrain = "hills", number = 10 },
  { q = -2, r = 0, terrain = "fields", number = 9 },
  { q = -1, r = 0, terrain = "forest", number = 11 },
  { q = 0, r = 0, terrain = "desert" },
  { q = 1, r = 0, terrain = "forest", number = 3 },
  { q = 2, r = 0, terrain = "mountains", number = 8 },
  { q = -2, r = 1, terrain = "forest", number = 8 },
  { q = -1, r = 1, terrain = "mountains", number = 3 },
  { q = 0, r = 1, terrain = "fields", number = 4 },
  { q = 1, r = 1, terrain = "pasture", number = 5 },
  { q = -2, r = 2, terrain = "hills", number = 5 },
  { q = -1, r = 2, terrain = "fields", number = 6 },
  { q = 0, r = 2, terrain = "pasture", number = 11 },
}

local BEGINNER_HARBORS = {
  { hex = 1, side = "NW", ratio = 3 },
  { hex = 2, side = "NE", resource = "grain", ratio = 2 },
  { hex = 7, side = "NE", resource = "ore", ratio = 2 },
  { hex = 12, side = "E", ratio = 3 },
  { hex = 16, side = "SE", resource = "wool", ratio = 2 },
  { hex = 18, side = "SE", ratio = 3 },
  { hex = 17, side = "SW", ratio = 3 },
  { hex = 13, side = "W", resource = "brick", ratio = 2 },
  { hex = 4, side = "W", resource = "lumber", ratio = 2 },
}

-- STAND-IN: the printed beginner starting pieces are not in our sources. These are
-- balanced positions of our own (each colour 18-21 pips, grain and ore within reach of
-- all, none on a harbor, the Distance Rule kept). Random bots win 19-29% per seat over
-- 300 seeded games (`catan sim --games 300 --seed 11`).; the second settlement of each colour is the starred one that pays the
-- starting resources. Replace with the printed positions when they are known.
-- Settlements are intersection labels, roads are paths "a-b".
local BEGINNER_PIECES = {
  red = { settlements = { 37, 26 }, roads = { "31-37", "21-26" } },
  blue = { settlements = { 29, 9 }, roads = { "23-29", "5-9" } },
  white = { settlements = { 40, 41 }, roads = { "40-44", "36-41" } },
  orange = { settlements = { 38, 49 }, roads = { "38-43", "49-53" } },
}

-- Number tokens A-R (Set-up, Variable; reference B2).
local TOKENS = { 5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11 }

local DEVELOPMENT_DECK = { knight = 14, victory_point = 5, road_building = 2, year_of_plenty = 2, monopoly = 2 }

-- The 5-6 player board and supply (5-6 Player Rules: Assembling the Larger Board; 5-6 Player
-- Expansion: Additional Components; reference B3, B4) ------------------------------------

-- 30 land hexes in rows of 3-4-5-6-5-4-3. STAND-IN: the printed 5-6 map is not in our
-- sources. This is a map of our own: the terrain mix of the rules (forest, pasture, fields 6
-- each; hills, mountains 5 each; 2 deserts), tokens A-Zc laid by the variable set-up's spiral
-- from H1, chosen for no adjacent 6/8 and pips shared fairly among the resources. It is the
-- map of board=stand_in, and the frame whose terrain and harbors the variable set-up shuffles.
local HEXES_56 = {
  { q = 0, r = -3, terrain = "hills", number = 2 },
  { q = 1, r = -3, terrain = "pasture", number = 8 },
  { q = 2, r = -3, terrain = "fields", number = 4 },
  { q = -1, r = -2, terrain = "mountains", number = 5 },
  { q = 0, r = -2, terrain = "desert" },
  { q = 1, r = -2, terrain = "pasture", number = 9 },
  { q = 2, r = -2, terrain = "forest", number = 8 },
  { q = -2, r = -1, terrain = "forest", number = 4 },
  { q = -1, r = -1, terrain = "hills", number = 10 },
  { q = 0, r = -1, terrain = "fields", number = 12 },
  { q = 1, r = -1, terrain = "hills", number = 5 },
  { q = 2, r = -1, terrain = "pasture", number = 3 },
  { q = -3, r = 0, terrain = "pasture", number = 6 },
  { q = -2, r = 0, terrain = "mountains", number = 11 },
  { q = -1, r = 0, terrain = "forest", number = 3 },
  { q = 0, r = 0, terrain = "forest", number = 6 },
  { q = 1, r = 0, terrain = "fields", number = 9 },
  { q = 2, r = 0, terrain = "fields", number = 6 },
  { q = -3, r = 1, terrain = "forest", number = 3 },
  { q = -2, r = 1, terrain = "pasture", number = 12 },
  { q = -1, r = 1, terrain = "mountains", number = 2 },
  { q = 0, r = 1, terrain = "hills", number = 4 },
  { q = 1, r = 1, terrain = "mountains", number = 10 },
  { q = -3, r = 2, terrain = "fields", number = 9 },
  { q = -2, r = 2, terrain = "hills", number = 10 },
  { q = -1, r = 2, terrain = "fields", number = 5 },
  { q = 0, r = 2, terrain = "forest", number = 11 },
  { q = -3, r = 3, terrain = "mountains", number = 8 },
  { q = -2, r = 3, terrain = "pasture", number = 11 },
  { q = -1, r = 3, terrain = "desert" },
}

-- 11 harbors: the base nine plus a 3:1 and a wool 2:1 (5-6 Player Rules, Illustration A).
-- STAND-IN positions: the frame's picture is not in our sources; these are spaced evenly
-- round the 38 coastal sides, clockwise from the top-left.
local HARBORS_56 = {
  { hex = 1, side = "W", ratio = 3 },
  { hex = 2, side = "NE", resource = "grain", ratio = 2 },
  { hex = 3, side = "E", resource = "ore", ratio = 2 },
  { hex = 12, side = "E", ratio = 3 },
  { hex = 18, side = "SE", resource = "wool", ratio = 2 },
  { hex = 27, side = "E", ratio = 3 },
  { hex = 30, side = "SW", resource = "wool", ratio = 2 },
  { hex = 28, side = "SE", ratio = 3 },
  { hex = 24, side = "W", resource = "brick", ratio = 2 },
  { hex = 13, side = "SW", ratio = 3 },
  { hex = 8, side = "NW", resource = "lumber", ratio = 2 },
}

-- Number tokens A-Y, then Za, Zb, Zc (reference B3); the base tokens are not used.
local TOKENS_56 = { 2, 5, 4, 6, 3, 9, 8, 11, 11, 10, 6, 3, 8, 4, 8, 10, 11, 12, 10, 5, 4, 9, 5, 9, 12, 3, 2, 6 }

-- The extension adds 5 of each resource (24 each) and 6 knights and one of each progress
-- card (34 development cards).
local RESOURCE_CARDS_56 = 24
local DEVELOPMENT_DECK_56 = { knight = 20, victory_point = 5, road_building = 3, year_of_plenty = 3, monopoly = 3 }

-- STAND-IN starting pieces for board=stand_in (the printed 5-6 ones are not in our sources):
-- positions of our own, 17-20 pips per colour, each colour with grain and ore and at least
-- four resources, no harbor, the Distance Rule kept, room to build from every settlement;
-- colours assigned by simulation: random bots win 11-21% per seat over 400 seeded 6-player
-- games under either turn structure (`catan sim --players 6 --option board=stand_in
-- --games 400 --seed 99`). The second settlement of each colour pays the starting
-- resources. With 5 players the colour nobody plays keeps its settlements on the board,
-- without roads (5-6 Player Expansion, Fixed Setup).
local PIECES_56 = {
  red = { settlements = { 9, 66 }, roads = { "5-9", "66-70" } },
  blue = { settlements = { 18, 31 }, roads = { "18-24", "31-37" } },
  white = { settlements = { 29, 45 }, roads = { "29-36", "45-51" } },
  orange = { settlements = { 42, 63 }, roads = { "42-48", "63-68" } },
  green = { settlements = { 62, 15 }, roads = { "62-67", "10-15" } },
  brown = { settlements = { 21, 46 }, roads = { "21-26", "39-46" } },
}

-- The printed costs, each a function that makes a fresh table: a table constructor sizes
-- the table once, where adding the kinds one by one to an empty table regrows it (the cost
-- filter runs several times an action).
local NEW_COST = {
  road = function() return { brick = 1, lumber = 1 } end,
  settlement = function() return { brick = 1, lumber = 1, wool = 1, grain = 1 } end,
  city = function() return { grain = 2, ore = 3 } end,
  development = function() return { ore = 1, wool = 1, grain = 1 } end,
}
local COSTS = {}
for what, make in pairs(NEW_COST) do COSTS[what] = make() end

-- Small helpers ------------------------------------------------------------------------

-- Raw `next` for loops whose result does not depend on order (copies, sums, checks, moves
-- that all happen); `pairs` (sorted, deterministic) everywhere else.
local next = next

local function copy(t)
  local c = {}
  for k, v in next, t do c[k] = v end
  return c
end

local function cards_text(cards)
  local parts = {}
  for _, r in ipairs(RESOURCES) do
    local n = cards[r]
    if n and n > 0 then parts[#parts + 1] = (n == 1 and r) or (n .. " " .. r) end
  end
  if #parts == 0 then return "nothing" end
  return table.concat(parts, " ")
end

-- "1 card", "2 cards": `word` is the singular.
local function plural(n, word) return n == 1 and word or (word .. "s") end

-- The kind and count of a cards table holding one kind, else nil (a loop, not next(t):
-- which key next gives first differs between runs).
local function only_kind(cards)
  local kind, n, kinds = nil, 0, 0
  for k, v in next, cards do kind, n, kinds = k, v, kinds + 1 end
  if kinds == 1 then return kind, n end
end

local function total(cards)
  local n = 0
  for _, v in next, cards do n = n + v end
  return n
end

-- Does p hold `cards`? `hand` (g:cards(p, "hand")) may be passed when asking many times.
local function has(g, p, cards, hand)
  if not hand then return g:holds(p, "hand", cards) end
  for k, n in next, cards do
    if (hand[k] or 0) < n then return false end
  end
  return true
end

local function pay(g, p, cards)
  for k, n in next, cards do
    if n > 0 then g:move(p, "hand", nil, "bank", k, n) end
  end
end

local function hand_size(g, p) return g:count_category(p, "hand", "resource") end

-- The printed costs are the first "cost" filter, base.cost: g:filter("cost", {}, what, seat)
-- gives any price with every variant's changes (a variant may ask it; replace_hook("base.cost")
-- reprices everything).
filter("cost", "base.cost", function(g, cards, what)
  -- Nothing priced before (the usual case: this hook runs first): the printed price itself.
  if next(cards) == nil and NEW_COST[what] then return NEW_COST[what]() end
  for k, n in next, COSTS[what] do cards[k] = (cards[k] or 0) + n end
  return cards
end, { priority = -1000 })

local function cost(g, what, p) return g:filter("cost", {}, what, p) end

-- The refusal of a price the seat cannot pay, as `deny(cannot_pay, price)`: worded only when
-- a player is refused, not each time a bot's draw asks.
local function cannot_pay(price) return "you cannot pay " .. cards_text(price) end

-- What `help` and `legal` say an action costs the seat now, after every variant's cost
-- filter (a house rule's price, not the printed one).
local COST_OF = { settlement = "settlement", road = "road", city = "city", buy = "development" }
filter("action_note", "base.costs", function(g, text, p, action)
  local what = COST_OF[action]
  if not what then return text end
  local ph = g:phase()
  if ph == "setup" or (action == "road" and ph == "road_building") then return "free now" end
  local c, parts = cost(g, what, p), {}
  for _, r in ipairs(RESOURCES) do
    local n = c[r]
    if n and n > 0 then parts[#parts + 1] = n == 1 and r or (n .. " " .. r) end
  end
  return "costs " .. (#parts == 0 and "nothing" or table.concat(parts, ", "))
end)

local function opt(g, name) return g:option(name) end

local function name(g, p) return g:color(p) end

local function other_seats(g, from)
  local n, out = g:players(), {}
  for i = 1, n - 1 do out[#out + 1] = (from - 1 + i) % n + 1 end
  return out
end

local function in_turn(g)
  local ph = g:phase()
  return ph == "main" or ph == "trade" or ph == "build"
end

-- Trade and build phases: combined, or trade then build (Almanac: Combined Trade/Build).
local function may_trade(g) local ph = g:phase() return ph == "main" or ph == "trade" end
-- Building is also open in the 5-6 player Special Building Phase (see the end of this file).
local function may_build(g) return in_turn(g) or g:phase() == "special_building" end
local function did_build(g)
  if g:phase() == "trade" then g:set_phase("build") end
end

-- Board set-up -------------------------------------------------------------------------

local function layout_hexes(g, hexes)
  local list = {}
  for i, h in ipairs(hexes) do list[i] = { q = h.q, r = h.r, terrain = h.terrain, number = h.number } end
  return list
end

local function red_adjacent(g)
  for h = 1, g:hex_count() do
    local _, n = g:hex(h)
    if n == 6 or n == 8 then
      for _, m in ipairs(g:hex_neighbors(h)) do
        local _, k = g:hex(m)
        if k == 6 or k == 8 then return true end
      end
    end
  end
  return false
end

local function build_board(g)
  local kind = opt(g, "board")
  local frame, frame_harbors, tokens = BEGINNER_HEXES, BEGINNER_HARBORS, TOKENS
  if g:players() >= 5 then
    -- The 5-6 player frame and tokens A-Zc. Its printed beginner map is not in our sources:
    -- beginner means the variable set-up; stand_in is our fixed map.
    frame, frame_harbors, tokens = HEXES_56, HARBORS_56, TOKENS_56
    if kind == "beginner" then kind = "variable" end
  elseif kind == "stand_in" then
    error("board=stand_in is the 5-6 player stand-in map; with 3-4 players use board=beginner")
  end
  local hexes = layout_hexes(g, frame)
  local harbors = {}
  for i, h in ipairs(frame_harbors) do harbors[i] = copy(h) end
  if kind ~= "beginner" and kind ~= "stand_in" then
    -- Set-up, Variable (1) and (2): terrain and harbor pieces shuffled onto the frame.
    local terrains = {}
    for i, h in ipairs(hexes) do terrains[i] = h.terrain end
    terrains = g:shuffled(terrains)
    for i, h in ipairs(hexes) do h.terrain = terrains[i]; h.number = nil end
    local kinds = {}
    for i, h in ipairs(harbors) do kinds[i] = { resource = h.resource, ratio = h.ratio } end
    kinds = g:shuffled(kinds)
    for i, h in ipairs(harbors) do h.resource = kinds[i].resource; h.ratio = kinds[i].ratio end
  end
  g:build_board({ hexes = hexes, harbors = harbors })
  if kind == "variable" then
    -- (3) Tokens A-R (A-Zc with 5-6 players) counter-clockwise in a spiral from a corner,
    -- skipping the desert(s).
    local corners = {}
    for h = 1, g:hex_count() do
      if #g:hex_neighbors(h) == 3 then corners[#corners + 1] = h end
    end
    local start = corners[g:random(#corners)]
    local t = 1
    for _, h in ipairs(g:spiral(start)) do
      local terrain = g:hex(h)
      if terrain ~= "desert" then
        g:set_hex(h, terrain, tokens[t])
        t = t + 1
      end
    end
  elseif kind == "random" then
    -- Fully random tokens: the red numbers 6 and 8 may not be adjacent; reshuffle until so.
    local land = {}
    for h = 1, g:hex_count() do
      if g:hex(h) ~= "desert" then land[#land + 1] = h end
    end
    repeat
      local shuffled = g:shuffled(tokens)
      for i, h in ipairs(land) do g:set_hex(h, (g:hex(h)), shuffled[i]) end
    until not red_adjacent(g)
  end
  for h = 1, g:hex_count() do
    if g:hex(h) == "desert" then g:set_marker("robber", h) break end
  end
end

local function starting_resources(g, p, node)
  -- Set-up Phase, Round Two: one card per terrain hex next to the second settlement.
  local got = {}
  for _, h in ipairs(g:hexes_at(node)) do
    local r = g:hex_resource(h)
    if r and g:count(nil, "bank", r) > 0 then
      g:move(nil, "bank", p, "hand", r, 1)
      got[r] = (got[r] or 0) + 1
    end
  end
  g:log(name(g, p) .. " takes starting resources: " .. cards_text(got))
end

local function begin_turns(g, first)
  g:set_current(first)
  g:set_turn(1)
  g:set_phase("roll")
  g:set("played_dev", false)
  g:log("--- turn 1: " .. name(g, first) .. " ---")
  g:run("turn_begin", first)
end

sequence("setup", "base.colors", function(g)
  if g:players() == 3 then
    -- Setting Up: with 3 players one colour sits out (red in the rulebook).
    local out, p = opt(g, "three_player_out"), 0
    for _, c in ipairs({ "red", "blue", "white", "orange" }) do
      if c ~= out then p = p + 1; g:set_color(p, c) end
    end
  end
end)

sequence("setup", "base.supply", function(g)
  local big = g:players() >= 5 -- the 5-6 player game adds its cards
  for _, r in ipairs(RESOURCES) do g:create(nil, "bank", r, big and RESOURCE_CARDS_56 or 19) end
  -- Filter point "development_deck": how many of each card the deck holds. A variant adds
  -- a new card (or changes the mix) with a filter; base's cards go in first, in this order,
  -- then the others by name, so the shuffle is the same for the same seed.
  local deck = g:filter("development_deck", copy(big and DEVELOPMENT_DECK_56 or DEVELOPMENT_DECK))
  local order = { "knight", "victory_point", "road_building", "year_of_plenty", "monopoly" }
  for card in pairs(deck) do
    if DEVELOPMENT_DECK[card] == nil then order[#order + 1] = card end
  end
  for _, card in ipairs(order) do
    if (deck[card] or 0) > 0 then g:create(nil, "deck", card, deck[card]) end
  end
  g:shuffle(nil, "deck")
end)

sequence("setup", "base.board", function(g) build_board(g) end)

-- The seat the first_player option names, or nil (0: as the rules say).
local function chosen_first(g)
  local first = opt(g, "first_player")
  if first == 0 then return nil end
  if first > g:players() then
    error("option first_player is " .. first .. ", but this game has " .. g:players() .. " players")
  end
  return first
end

-- Many players expect to place their own first settlements: say how.
filter("welcome", "base.welcome", function(g, text)
  local fixed = opt(g, "board") == "beginner" and opt(g, "starting_pieces") and BEGINNER_PIECES or nil
  if g:turn() > 1 or g:phase() == "setup" or not g:filter("starting_pieces", fixed) then return text end
  return (text and (text .. "\n") or "") .. "this game starts from fixed starting pieces (the rulebook's first-game "
    .. "set-up); to place your own in the two set-up rounds, start it with `--option starting_pieces=false`"
    .. " (and `--option board=variable` for a new map)"
end)

sequence("setup", "base.start", function(g)
  local n = g:players()
  -- Fixed starting pieces by colour ({ red = { settlements = { 37, 26 }, roads = { "31-37", ... } } },
  -- the second settlement paying the starting resources), or nil for the set-up rounds. A
  -- variant with its own board supplies its own through the "starting_pieces" filter.
  local fixed
  if opt(g, "board") == "beginner" and opt(g, "starting_pieces") then fixed = BEGINNER_PIECES end
  fixed = g:filter("starting_pieces", fixed)
  if fixed then
    -- Starting Set-up for Beginners: fixed pieces; the oldest player (first seat) starts.
    for p = 1, n do
      local pieces = fixed[g:color(p)] or error("no starting pieces for " .. g:color(p))
      for _, s in ipairs(pieces.settlements) do g:place(p, "settlement", s) end
      for _, label in ipairs(pieces.roads) do
        local a, b = label:match("(%d+)-(%d+)")
        a, b = tonumber(a), tonumber(b)
        local placed = false
        for _, path in ipairs(g:paths_at(a)) do
          local x, y = g:ends(path)
          if (x == a and y == b) or (y == a and x == b) then
            g:place(p, "road", path)
            placed = true
          end
        end
        if not placed then error("beginner road " .. label .. " is not a path of the board") end
      end
      starting_resources(g, p, pieces.settlements[2])
    end
    begin_turns(g, chosen_first(g) or 1)
    return
  end
  -- Set-up Phase, Round One: everyone rolls; the highest roll starts (ties roll again).
  local contenders = {}
  for p = 1, n do contenders[p] = p end
  local first = chosen_first(g)
  while not first do
    local best, top = -1, {}
    for _, p in ipairs(contenders) do
      local d = g:roll(2)
      local s = d[1] + d[2]
      g:log(name(g, p) .. " rolls " .. s .. " for the start")
      if s > best then best, top = s, { p } elseif s == best then top[#top + 1] = p end
    end
    if #top == 1 then first = top[1] else contenders = top end
  end
  g:log(name(g, first) .. " is the starting player")
  -- Round one clockwise from the starting player, round two counter-clockwise back.
  local order = {}
  for i = 0, n - 1 do order[#order + 1] = (first - 1 + i) % n + 1 end
  for i = n, 1, -1 do order[#order + 1] = order[i] end
  g:set("setup_order", order)
  g:set("setup_index", 1)
  g:set("setup_step", "settlement")
  g:set("starting_player", first)
  g:set_phase("setup")
  g:set_current(first)
end)

-- Who acts ------------------------------------------------------------------------------

filter("to_act", "base.to_act", function(g, seat)
  local ph = g:phase()
  if ph == "setup" then
    return g:get("setup_order", g:get("setup_index"))
  elseif ph == "discard" then
    -- Everyone discards at once; we ask them clockwise from the roller.
    local owed = g:get("discards") or {}
    local n = g:players()
    for i = 0, n - 1 do
      local p = (g:current() - 1 + i) % n + 1
      if (owed[p] or 0) > 0 then return p end
    end
  elseif ph == "offer" then
    local offer = g:get("offer")
    for _, p in ipairs(other_seats(g, offer.from)) do
      if not offer.responses[p] then return p end
    end
  end
  return seat
end)

-- Points (Victory Points) ----------------------------------------------------------------

filter("victory_points", "base.points", function(g, v, p, hidden)
  v = v + g:piece_count(p, "settlement") + 2 * g:piece_count(p, "city")
  if g:get("longest_road") == p then v = v + 2 end
  if g:get("largest_army") == p then v = v + 2 end
  -- Victory point cards stay hidden until they win the game.
  if hidden or g:winner() then
    v = v + g:count(p, "dev", "victory_point") + g:count(p, "dev_new", "victory_point")
  end
  return v
end)

filter("describe", "base.describe", function(g, info, p)
  info.knights = g:count(p, "played", "knight")
  info.road_length = g:longest_trail(p, "road")
  info.longest_road = g:get("longest_road") == p
  info.largest_army = g:get("largest_army") == p
  info.resource_cards = hand_size(g, p)
  info.development_cards = g:count(p, "dev") + g:count(p, "dev_new")
  return info
end)

-- The line `show players` prints after a player's points. It runs after the other
-- describe hooks, so a child that renames the army (info.army_name, info.army) or adds
-- fields sees its change here.
filter("describe", "base.summary", function(g, info, p)
  local tags = {}
  if info.longest_road then tags[#tags + 1] = "Longest Road" end
  if info.largest_army then tags[#tags + 1] = "Largest Army" end
  local res, dev, army = info.resource_cards or 0, info.development_cards or 0, info.army or info.knights or 0
  -- The army's name is plural ("knights", "soldiers"); one is said without the s.
  local army_name = info.army_name or "knights"
  if army == 1 then army_name = army_name:gsub("s$", "") end
  info.summary = string.format("%2d %-14s  %2d %-17s  %d %s  road %d%s",
    res, plural(res, "resource card"), dev, plural(dev, "development card"), army,
    army_name, info.road_length or 0,
    #tags > 0 and ("  [" .. table.concat(tags, ", ") .. "]") or "")
  return info
end, { priority = 100 })

-- Longest Road (Almanac: Longest Road, including its Special Case) -------------------------

-- `before`: after a settlement, the holder's road length before it was built (a shorter
-- road now means the settlement broke it).
local function update_longest_road(g, before)
  local holder = g:get("longest_road")
  local best, leaders = 0, {}
  local lengths = {}
  for p = 1, g:players() do
    local len = g:longest_trail(p, "road")
    lengths[p] = len
    if len > best then best, leaders = len, { p } elseif len == best then leaders[#leaders + 1] = p end
  end
  -- The holder keeps the card while tied for the longest road; only a longer road takes it.
  -- Option longest_road_tie=set_aside: once a settlement broke the holder's road, a tie for
  -- the longest sets the card aside, holder included (Family FAQ; older rules).
  if holder and lengths[holder] >= 5 and lengths[holder] == best then
    local broken = before and lengths[holder] < before
    if not (broken and #leaders > 1 and opt(g, "longest_road_tie") == "set_aside") then return end
  end
  local new
  if best >= 5 and #leaders == 1 then new = leaders[1] end
  if new ~= holder then
    g:set("longest_road", new)
    if new then
      g:log(name(g, new) .. " takes Longest Road (" .. best .. " roads)")
    else
      g:log("Longest Road is set aside")
    end
    g:emit("longest_road_changed", { from = holder, to = new })
  end
end

-- Largest Army: the first to play 3 knights, then whoever has more knights than the holder
-- ("they immediately take the special card"), even fewer than 3 once the holder has given
-- knights up (Helpers of Catan, Vincent). `card` is the played card counted ("knight";
-- classic's "soldier"), `army` their name in the log ("knights").
local function update_largest_army(g, p, card, army)
  local holder = g:get("largest_army")
  if holder == p then return end
  local mine = g:count(p, "played", card)
  if holder then
    if g:count(holder, "played", card) >= mine then return end
  elseif mine < 3 then
    return
  end
  g:set("largest_army", p)
  g:log(name(g, p) .. " takes Largest Army (" .. mine .. " " .. army .. ")")
  g:emit("largest_army_changed", { from = holder, to = p })
end

-- A variant that takes face-up knights away emits "knights_changed" ({ seat }, the seat that
-- lost them): whoever now has more knights than the holder takes Largest Army, asked
-- clockwise from the player whose turn it is.
on("knights_changed", "base.largest_army", function(g)
  local n = g:players()
  for i = 0, n - 1 do update_largest_army(g, (g:current() - 1 + i) % n + 1, "knight", "knights") end
end)

local function engine_points(g, p) return g:filter("victory_points", 0, p, true) end

-- Ending the Game: 10 points during your own turn, hidden victory point cards included.
-- 5-6 players: a Special Building Phase is not the builder's turn (it comes "between player
-- turns"), so it wins nothing; 10 points then win once the builder's own turn begins.
sequence("after_action", "base.victory", function(g)
  if g:winner() then return end
  local ph = g:phase()
  if ph == "setup" or ph == "special_building" then return end
  local p = g:current()
  if engine_points(g, p) >= opt(g, "victory_points") then
    g:declare_winner(p)
    g:log(name(g, p) .. " wins with " .. engine_points(g, p) .. " points!")
    g:emit("game_won", { seat = p })
  end
end)

-- Set-up phase actions -------------------------------------------------------------------

local function setup_turn(g, p)
  return g:phase() == "setup" and g:get("setup_order", g:get("setup_index")) == p
end

-- Why an action of the turn is refused now, in the rulebook's words: the `why_not` of the
-- actions below, asked only when a player is refused (listing never calls it).
local WAIT_FOR = {
  roll = "roll the dice first",
  discard = "on a 7, the players with too many cards discard half first",
  robber = "move the robber first",
  steal = "choose whom to rob first",
  road_building = "place your free roads first (or `done`)",
  offer = "a trade offer is waiting for answers: confirm a partner or `cancel`",
  special_building = "only building is allowed in the Special Building Phase",
  build = "the trade phase is over: build, or end your turn",
}
local function why_not_turn(g, p)
  local ph = g:phase()
  if ph == "setup" then
    local order = g:get("setup_order") or {}
    local who = order[g:get("setup_index")]
    if who and who ~= p then return "it is " .. g:color(who) .. "'s turn to place" end
    return "in the set-up rounds, place your " .. (g:get("setup_step") or "pieces") .. " first"
  end
  if p ~= g:current() and ph ~= "special_building" and ph ~= "discard" and ph ~= "offer" then
    return "it is not your turn: " .. g:color(g:current()) .. " is playing"
  end
  if ph == "main" or ph == "trade" then return "you have already rolled the dice this turn" end
  return WAIT_FOR[ph]
end

local function settlement_sites(g, p)
  -- Distance Rule: no settlement or city on any adjacent intersection.
  return g:open_intersections(2, p)
end

local function contains(list, x)
  for _, v in ipairs(list) do if v == x then return true end end
  return false
end

-- Base's small helpers, for modules layered on base (helpers.lua) to call instead of
-- keeping copies: a sandboxed variant has no `require`, and locals are private to a file.
catan = {
  RESOURCES = RESOURCES,
  copy = copy,
  total = total,
  cards_text = cards_text,
  has = has,
  pay = pay,
  hand_size = hand_size,
  contains = contains,
  name = name,
}

-- Building -------------------------------------------------------------------------------

action {
  name = "settlement",
  phases = { "setup", "main", "trade", "build", "special_building" },
  syntax = "settlement <intersection>",
  help = "build a settlement; in the set-up phase, place one for free",
  why_not = why_not_turn,
  when = function(g, p)
    if g:phase() == "setup" then return setup_turn(g, p) and g:get("setup_step") == "settlement" end
    return p == g:current() and may_build(g)
  end,
  options = function(g, p)
    if g:phase() == "setup" then return g:open_intersections(2) end
    if g:supply(p, "settlement") == 0 or not has(g, p, cost(g, "settlement", p)) then return {} end
    return settlement_sites(g, p)
  end,
  legal = function(g, p, node)
    local piece = g:at("intersection", node)
    if piece then return deny("that intersection is taken") end
    for _, n in ipairs(g:neighbors(node)) do
      if g:at("intersection", n) then return deny("the Distance Rule: an adjacent intersection is occupied") end
    end
    if g:supply(p, "settlement") == 0 then return deny("you have no settlement left (upgrade one to a city first)") end
    if g:phase() == "setup" then return true end
    local connected = false
    for _, path in ipairs(g:paths_at(node)) do
      local _, owner = g:at("path", path)
      if owner == p then connected = true end
    end
    if not connected then return deny("a settlement must connect to one of your roads") end
    local price = cost(g, "settlement", p)
    if not has(g, p, price) then return deny(cannot_pay, price) end
    return true
  end,
  apply = function(g, p, node)
    local holder = g:get("longest_road")
    local before = holder and g:longest_trail(holder, "road")
    if g:phase() == "setup" then
      g:place(p, "settlement", node)
      g:log("%s places a settlement on %d", name(g, p), node)
      local idx = g:get("setup_index")
      if idx > g:players() then starting_resources(g, p, node) end
      g:set("setup_last", node)
      g:set("setup_step", "road")
    else
      pay(g, p, cost(g, "settlement", p))
      g:place(p, "settlement", node)
      did_build(g)
      g:log("%s builds a settlement on %d", name(g, p), node)
    end
    -- A settlement may break an opponent's road (Almanac: Longest Road).
    update_longest_road(g, before)
    g:emit("built", { seat = p, piece = "settlement", site = node })
  end,
}

local function road_spots(g, p)
  if g:supply(p, "road") == 0 then return {} end
  return g:open_paths(p)
end

action {
  name = "road",
  phases = { "setup", "road_building", "main", "trade", "build", "special_building" },
  syntax = "road <path>",
  help = "build a road; free in the set-up phase and with Road Building",
  why_not = why_not_turn,
  when = function(g, p)
    local ph = g:phase()
    if ph == "setup" then return setup_turn(g, p) and g:get("setup_step") == "road" end
    if ph == "road_building" then return p == g:current() end
    return p == g:current() and may_build(g)
  end,
  options = function(g, p)
    local ph = g:phase()
    if ph == "setup" then
      local out = {}
      for _, path in ipairs(g:paths_at(g:get("setup_last"))) do
        if not g:at("path", path) then out[#out + 1] = path end
      end
      return out
    end
    if ph ~= "road_building" and not has(g, p, cost(g, "road", p)) then return {} end
    return road_spots(g, p)
  end,
  legal = function(g, p, path)
    if g:at("path", path) then return deny("there is already a road on that path") end
    if g:supply(p, "road") == 0 then return deny("you have no road left") end
    local ph = g:phase()
    if ph == "setup" then
      -- Set-up Phase: the road attaches to the settlement just placed.
      local a, b = g:ends(path)
      local last = g:get("setup_last")
      if a ~= last and b ~= last then return deny("the set-up road must touch the settlement you just placed") end
      return true
    end
    if not contains(g:open_paths(p), path) then
      return deny("a road must connect to your road, settlement or city (and not through another player's building)")
    end
    if ph ~= "road_building" then
      local price = cost(g, "road", p)
      if not has(g, p, price) then return deny(cannot_pay, price) end
    end
    return true
  end,
  apply = function(g, p, path)
    local ph = g:phase()
    local a, b = g:ends(path)
    g:place(p, "road", path)
    if ph == "setup" then
      g:log("%s places a road on %d-%d", name(g, p), a, b)
      local idx = g:get("setup_index") + 1
      g:set("setup_index", idx)
      g:set("setup_step", "settlement")
      if idx > #g:get("setup_order") then
        -- The starting player, last to place, begins the game (Set-up Phase, Round Two).
        g:set("setup_order", nil); g:set("setup_index", nil); g:set("setup_step", nil); g:set("setup_last", nil)
        begin_turns(g, g:get("starting_player"))
      end
    elseif ph == "road_building" then
      local left = g:get("free_roads") - 1
      g:log("%s builds a free road on %d-%d", name(g, p), a, b)
      if left == 0 or #road_spots(g, p) == 0 then
        g:set("free_roads", nil)
        g:set_phase(g:get("return_phase"))
        g:set("return_phase", nil)
      else
        g:set("free_roads", left)
      end
    else
      pay(g, p, cost(g, "road", p))
      did_build(g)
      g:log("%s builds a road on %d-%d", name(g, p), a, b)
    end
    update_longest_road(g)
    g:emit("built", { seat = p, piece = "road", site = path })
  end,
}

action {
  name = "city",
  phases = { "main", "trade", "build", "special_building" },
  syntax = "city <intersection>",
  help = "upgrade one of your settlements to a city",
  why_not = why_not_turn,
  when = function(g, p) return p == g:current() and may_build(g) end,
  options = function(g, p)
    if g:supply(p, "city") == 0 or not has(g, p, cost(g, "city", p)) then return {} end
    return g:pieces_of(p, "settlement")
  end,
  legal = function(g, p, node)
    local kind, owner = g:at("intersection", node)
    if kind ~= "settlement" or owner ~= p then return deny("a city replaces one of your own settlements") end
    if g:supply(p, "city") == 0 then return deny("you have no city left") end
    local price = cost(g, "city", p)
    if not has(g, p, price) then return deny(cannot_pay, price) end
    return true
  end,
  apply = function(g, p, node)
    pay(g, p, cost(g, "city", p))
    -- Cities: the settlement goes back to your supply.
    g:upgrade(node, "city")
    did_build(g)
    g:log("%s builds a city on %d", name(g, p), node)
    g:emit("built", { seat = p, piece = "city", site = node })
  end,
}

action {
  name = "buy",
  phases = { "main", "trade", "build", "special_building" },
  syntax = "buy",
  help = "buy a development card",
  why_not = why_not_turn,
  when = function(g, p) return p == g:current() and may_build(g) end,
  legal = function(g, p)
    -- Development cards: none can be bought once the deck is empty.
    if g:count(nil, "deck") == 0 then return deny("the development card deck is empty") end
    local price = cost(g, "development", p)
    if not has(g, p, price) then return deny(cannot_pay, price) end
    return true
  end,
  apply = function(g, p)
    pay(g, p, cost(g, "development", p))
    local card = g:draw(nil, "deck", p, "dev_new")
    did_build(g)
    g:log(name(g, p) .. " buys a development card")
    g:tell({ p }, "you drew: " .. card)
    g:emit("bought", { seat = p, card = card })
  end,
}

-- The turn: production, the robber -------------------------------------------------------

local function produce(g, roll)
  -- Resource Production: 1 per settlement, 2 per city, nothing where the robber stands.
  -- want[i * stride + seat]: cards of RESOURCES[i] owed to the seat (one flat table; a
  -- table per resource and a list of seats per resource cost more than the payout).
  local robber, seats = g:marker("robber"), g:players()
  local stride = seats + 1
  local want = {}
  for _, h in ipairs(g:hexes_numbered(roll)) do
    local r = g:hex_resource(h)
    if r and h ~= robber then
      local i = RESOURCE_INDEX[r] -- (a resource of no RESOURCES entry is never paid out)
      local pieces = g:corner_pieces(h) -- intersection, kind, owner, ...
      for j = 1, #pieces, 3 do
        local kind, owner = pieces[j + 1], pieces[j + 2]
        if owner then -- (a piece of no player, a 5-6 player blocker, produces nothing)
          local n = g:filter("production", kind == "city" and 2 or 1, owner, kind, h)
          if i then
            local k = i * stride + owner
            want[k] = (want[k] or 0) + n
          end
        end
      end
    end
  end
  -- seat -> cards received, for the "produced" event: built only when a hook reads it.
  local got = g:listens("produced") and {} or nil
  for i, r in ipairs(RESOURCES) do
    local at = i * stride
    -- The seats in order, as the sandbox's sorted pairs walks them, by a numeric loop.
    local need, owed, only = 0, 0, nil
    for p = 1, seats do
      local n = want[at + p]
      if n then need, owed, only = need + n, owed + 1, p end
    end
    if owed > 0 then
      local bank = g:count(nil, "bank", r)
      if need <= bank then
        for p = 1, seats do
          local n = want[at + p]
          if n then
            g:move(nil, "bank", p, "hand", r, n)
            if got then
              local mine = got[p]
              if not mine then mine = {}; got[p] = mine end
              mine[r] = (mine[r] or 0) + n
            end
            if n == 1 then g:log("%s receives %s", name(g, p), r) else g:log("%s receives %d %s", name(g, p), n, r) end
          end
        end
      elseif owed == 1 and opt(g, "shortage_exception") then
        -- The shortage affects one player only: they take what is left.
        if bank > 0 then
          g:move(nil, "bank", only, "hand", r, bank)
          if got then
            local mine = got[only]
            if not mine then mine = {}; got[only] = mine end
            mine[r] = (mine[r] or 0) + bank
          end
        end
        g:log("the bank is short of " .. r .. ": " .. name(g, only) .. " receives " .. bank)
      else
        g:log("the bank is short of " .. r .. ": nobody receives " .. r)
      end
    end
  end
  g:emit("produced", { seat = g:current(), roll = roll, got = got })
end

local function robber_phase(g, return_phase)
  g:set("return_phase", return_phase)
  g:set_phase("robber")
end

-- Rolling a 7 (sequence point "seven", run by the roll as (seat, phase after the robber)): no
-- production; more than 7 cards discard half, rounded down; then the robber moves. A variant
-- may wrap base.seven to let a player decide something first and run it later.
sequence("seven", "base.seven", function(g, p, after)
  local owed, any = {}, false
  for q = 1, g:players() do
    local n = hand_size(g, q)
    local d7 = g:filter("discard_count", n > opt(g, "discard_limit") and n // 2 or 0, q, n)
    if d7 > 0 then owed[q] = d7; any = true end
  end
  g:set("robber_return", after)
  if any then
    g:set("discards", owed)
    g:set_phase("discard")
  else
    robber_phase(g, after)
  end
end)

action {
  name = "roll",
  phases = { "roll" },
  syntax = "roll",
  help = "roll the dice for resource production",
  why_not = why_not_turn,
  when = function(g, p) return p == g:current() and g:phase() == "roll" end,
  apply = function(g, p)
    local d = g:roll(2)
    local sum = d[1] + d[2]
    g:set("last_roll", d)
    g:log("%s rolls %d+%d = %d", name(g, p), d[1], d[2], sum)
    local after = opt(g, "combined_trade_build") and "main" or "trade"
    if sum == 7 then
      g:run("seven", p, after)
    else
      produce(g, sum)
      g:set_phase(after)
    end
    g:emit("rolled", { seat = p, dice = d, sum = sum })
  end,
}

-- All ways to pick `n` cards from a hand, as {resource = count} tables.
local function selections(hand, n)
  local out = {}
  local function rec(i, left, acc)
    if left == 0 then out[#out + 1] = copy(acc) return end
    if i > #RESOURCES then return end
    local r = RESOURCES[i]
    local have = hand[r] or 0
    for k = math.min(have, left), 0, -1 do
      acc[r] = k > 0 and k or nil
      rec(i + 1, left - k, acc)
    end
    acc[r] = nil
  end
  rec(1, n, {})
  return out
end

-- The selection `selections(hand, n)` lists at position (r * count) // 1 + 1, found by
-- counting: what the random bots draw (an action's `sample`), without listing the
-- hundreds of ways to discard half of a large hand.
local function nth_selection(hand, n, r)
  local last = #RESOURCES
  -- ways[(last + 1 - i) * (n + 1) + left + 1]: the ways to pick `left` more cards from
  -- resources i.. on, in one list filled in order (a table per resource, grown key by key,
  -- cost more than the counting).
  local stride = n + 1
  local ways = { 1 }
  for left = 1, n do ways[left + 1] = 0 end
  for i = last, 1, -1 do
    local have, after = hand[RESOURCES[i]] or 0, (last - i) * stride + 1
    for left = 0, n do
      local sum = 0
      for k = 0, math.min(have, left) do sum = sum + ways[after + left - k] end
      ways[after + stride + left] = sum
    end
  end
  local count = ways[last * stride + n + 1]
  if count == 0 then return nil end
  local skip, left, out = (r * count) // 1, n, {}
  for i = 1, last do
    local res = RESOURCES[i]
    for k = math.min(hand[res] or 0, left), 0, -1 do
      local here = ways[(last - i) * stride + left - k + 1]
      if skip < here then
        if k > 0 then out[res] = k end
        left = left - k
        break
      end
      skip = skip - here
    end
  end
  return out
end

action {
  name = "discard",
  phases = { "discard" },
  syntax = "discard <cards>",
  help = "on a 7, discard half your resource cards (rounded down), chosen by you",
  when = function(g, p) return g:phase() == "discard" and (g:get("discards", p) or 0) > 0 end,
  options = function(g, p)
    return selections(g:cards(p, "hand"), g:get("discards", p))
  end,
  sample = function(g, p, r)
    return nth_selection(g:cards(p, "hand"), g:get("discards", p), r)
  end,
  legal = function(g, p, cards)
    local owed = g:get("discards", p)
    for k in pairs(cards) do
      if not IS_RESOURCE[k] then return deny("only resource cards are discarded") end
    end
    if total(cards) ~= owed then return deny("you must discard exactly " .. owed .. " " .. plural(owed, "card")) end
    if not has(g, p, cards) then return deny("you do not hold those cards") end
    return true
  end,
  apply = function(g, p, cards)
    pay(g, p, cards)
    g:log(name(g, p) .. " discards " .. cards_text(cards))
    local owed = g:get("discards")
    owed[p] = nil
    if next(owed) then
      g:set("discards", owed)
    else
      g:set("discards", nil)
      robber_phase(g, g:get("robber_return"))
    end
    g:emit("discarded", { seat = p, cards = cards })
  end,
}

local function robber_targets(g)
  local current = g:marker("robber")
  local out = {}
  for h = 1, g:hex_count() do
    local terrain = g:hex(h)
    if h ~= current and (terrain ~= "desert" or opt(g, "robber_desert")) then out[#out + 1] = h end
  end
  return g:filter("robber_targets", out, g:current())
end

local function victims(g, p, hex)
  local out = {}
  for _, q in ipairs(g:owners_at(hex)) do
    if q ~= p then out[#out + 1] = q end
  end
  return g:filter("steal_targets", out, p, hex)
end

local function steal(g, p, victim)
  local card = g:random_card(victim, "hand", "resource")
  if card then
    g:move(victim, "hand", p, "hand", card, 1)
    g:log("%s steals a card from %s", name(g, p), name(g, victim))
    g:tell({ p, victim }, name(g, p) .. " stole " .. card .. " from " .. name(g, victim))
  else
    g:log(name(g, p) .. " steals from " .. name(g, victim) .. ", who has no cards")
  end
  g:emit("stole", { seat = p, victim = victim })
end

local function finish_robber(g)
  g:set_phase(g:get("return_phase"))
  g:set("return_phase", nil)
  g:set("robber_return", nil)
end

action {
  name = "robber",
  phases = { "robber" },
  syntax = "robber <hex>",
  help = "move the robber to another hex",
  why_not = why_not_turn,
  when = function(g, p) return g:phase() == "robber" and p == g:current() end,
  options = function(g, p) return robber_targets(g) end,
  legal = function(g, p, hex)
    if hex == g:marker("robber") then return deny("the robber must move to another hex") end
    if not contains(robber_targets(g), hex) then return deny("the robber may not go there") end
    return true
  end,
  apply = function(g, p, hex)
    g:set_marker("robber", hex)
    g:log("%s moves the robber to H%d", name(g, p), hex)
    g:emit("robber_moved", { seat = p, hex = hex })
    local vs = victims(g, p, hex)
    if #vs == 0 then
      finish_robber(g)
    elseif #vs == 1 then
      steal(g, p, vs[1])
      finish_robber(g)
    else
      g:set_phase("steal")
    end
  end,
}

action {
  name = "steal",
  phases = { "steal" },
  syntax = "steal <player>",
  help = "take a random resource card from a player next to the robber",
  when = function(g, p) return g:phase() == "steal" and p == g:current() end,
  options = function(g, p) return victims(g, p, g:marker("robber")) end,
  legal = function(g, p, victim)
    if not contains(victims(g, p, g:marker("robber")), victim) then
      return deny("you may only steal from a player with a building next to the robber")
    end
    return true
  end,
  apply = function(g, p, victim)
    steal(g, p, victim)
    finish_robber(g)
  end,
}

-- Development cards ----------------------------------------------------------------------

local PLAY_PHASES = { "roll", "main", "trade", "build" }

-- Playing Development Cards: one per turn, any time during your turn (even before the
-- roll), never one bought this turn.
local function may_play(g, p, card)
  -- Holding the card is asked first: it is what most often says no.
  if g:count(p, "dev", card) == 0 or p ~= g:current() or g:get("played_dev") then return false end
  local ph = g:phase()
  return ph == "roll" or in_turn(g)
end

-- `help knight` and the like: the development cards in the rulebook's words (Almanac:
-- Development Cards, Knight Cards, Progress Cards, Victory Point Cards).
local DEV_TEXT = {
  knight = "Knight (development card, 14): when you play it, you must immediately move the robber and "
    .. "steal 1 resource card from an owner of a settlement or city next to its new hex. Played knights "
    .. "stay face up in front of you; the first player with 3 takes Largest Army (2 victory points), "
    .. "and whoever has more afterwards takes it over.",
  road_building = "Road Building (progress card, 2): place 2 free roads on the board, by the normal building rules.",
  year_of_plenty = "Year of Plenty (progress card, 2): take any 2 resource cards from the bank; you may "
    .. "use them to build in the same turn.",
  monopoly = "Monopoly (progress card, 2): name 1 type of resource; all the other players must give you "
    .. "all of their resource cards of that type.",
  victory_point = "Victory Point (development card, 5): 1 victory point, kept hidden until you reach the "
    .. "points to win in your turn (or the game ends).",
}
local PLAY_RULE = "\nYou may play 1 development card in your turn (any time, even before the roll), "
  .. "never one bought in the same turn."
filter("card_text", "base.development_cards", function(g, text, kind)
  if text or not DEV_TEXT[kind] then return text end
  return DEV_TEXT[kind] .. (kind == "victory_point" and "" or PLAY_RULE)
end)

-- Why `play CARD` is refused (Almanac: Development Cards): asked only on a refusal.
local function why_not_play(card)
  local title = card:gsub("_", " ")
  return function(g, p)
    if p ~= g:current() then return "you may play a development card only in your own turn" end
    if g:get("played_dev") then return "you have already played a development card this turn (one per turn)" end
    local ph = g:phase()
    if ph ~= "roll" and not in_turn(g) then return WAIT_FOR[ph] or why_not_turn(g, p) end
    if g:count(p, "dev", card) == 0 then
      if g:count(p, "dev_new", card) > 0 then
        return "a development card cannot be played in the turn you bought it"
      end
      return "you have no " .. title .. " card"
    end
  end
end

-- Plays `card` from p's hand of development cards: the one card of the turn; knights (and
-- any card with `face_up`) stay face up in p's "played" zone, the others go to the box.
local function use_card(g, p, card, face_up)
  g:set("played_dev", true)
  if card == "knight" or face_up then
    g:move(p, "dev", p, "played", card, 1)
  else
    g:move(p, "dev", nil, "box", card, 1)
  end
  g:emit("played_development", { seat = p, card = card })
end

-- For a new development card: `when = function(g, p) return catan.may_play(g, p, "x") end`,
-- `phases = catan.PLAY_PHASES`, and `catan.use_card(g, p, "x")` first thing in `apply`.
catan.may_play, catan.use_card, catan.PLAY_PHASES = may_play, use_card, PLAY_PHASES
-- An edition with another army card (classic's Soldiers) counts it with
-- `catan.update_largest_army(g, p, "soldier", "soldiers")`.
catan.update_largest_army = update_largest_army

action {
  name = "play_knight",
  phases = PLAY_PHASES,
  syntax = "play knight",
  help = "play a knight: move the robber and steal",
  when = function(g, p) return may_play(g, p, "knight") end,
  why_not = why_not_play("knight"),
  apply = function(g, p)
    use_card(g, p, "knight")
    g:log(name(g, p) .. " plays a knight")
    update_largest_army(g, p, "knight", "knights")
    robber_phase(g, g:phase())
  end,
}

-- Free roads (sequence point "free_roads", (seat, n)): up to n roads placed at no cost in
-- phase road_building, then back to the phase it interrupted. Road Building runs it; any
-- variant may grant free roads with g:run("free_roads", seat, n).
sequence("free_roads", "base.free_roads", function(g, p, n)
  if #road_spots(g, p) > 0 then
    g:set("return_phase", g:phase())
    g:set("free_roads", math.min(n, g:supply(p, "road")))
    g:set_phase("road_building")
  end
end)

action {
  name = "play_road_building",
  phases = PLAY_PHASES,
  syntax = "play road_building",
  help = "play Road Building: place 2 free roads",
  when = function(g, p) return may_play(g, p, "road_building") end,
  why_not = why_not_play("road_building"),
  apply = function(g, p)
    use_card(g, p, "road_building")
    g:log(name(g, p) .. " plays Road Building")
    g:run("free_roads", p, 2)
  end,
}

action {
  name = "done",
  phases = { "road_building" },
  syntax = "done",
  help = "stop placing free roads",
  when = function(g, p) return g:phase() == "road_building" and p == g:current() end,
  apply = function(g, p)
    g:set("free_roads", nil)
    g:set_phase(g:get("return_phase"))
    g:set("return_phase", nil)
  end,
}

action {
  name = "play_year_of_plenty",
  phases = PLAY_PHASES,
  syntax = "play year_of_plenty <resource> <resource>",
  help = "play Year of Plenty: take any 2 resource cards from the bank",
  when = function(g, p) return may_play(g, p, "year_of_plenty") end,
  why_not = why_not_play("year_of_plenty"),
  options = function(g, p)
    local out = {}
    for i, a in ipairs(RESOURCES) do
      for j = i, #RESOURCES do
        local b = RESOURCES[j]
        local need = (a == b) and 2 or 1
        if g:count(nil, "bank", a) >= need and g:count(nil, "bank", b) >= need then out[#out + 1] = { a, b } end
      end
    end
    return out
  end,
  legal = function(g, p, a, b)
    if a == b and g:count(nil, "bank", a) < 2 or g:count(nil, "bank", a) < 1 or g:count(nil, "bank", b) < 1 then
      return deny("the bank does not have those cards")
    end
    return true
  end,
  apply = function(g, p, a, b)
    use_card(g, p, "year_of_plenty")
    g:move(nil, "bank", p, "hand", a, 1)
    g:move(nil, "bank", p, "hand", b, 1)
    g:log(name(g, p) .. " plays Year of Plenty and takes " .. cards_text({ [a] = 1, [b] = (a == b) and 2 or 1 }))
  end,
}

action {
  name = "play_monopoly",
  phases = PLAY_PHASES,
  syntax = "play monopoly <resource>",
  help = "play Monopoly: every other player gives you all their cards of one resource",
  when = function(g, p) return may_play(g, p, "monopoly") end,
  why_not = why_not_play("monopoly"),
  options = function(g, p) return RESOURCES end,
  apply = function(g, p, r)
    use_card(g, p, "monopoly")
    local got = 0
    for _, q in ipairs(other_seats(g, p)) do
      local n = g:count(q, "hand", r)
      if n > 0 then
        g:move(q, "hand", p, "hand", r, n)
        got = got + n
      end
    end
    g:log(name(g, p) .. " plays Monopoly on " .. r .. " and takes " .. got)
  end,
}

-- Trade ------------------------------------------------------------------------------------

-- Maritime Trade: 4:1, 3:1 at a generic harbor, 2:1 at a harbor of that resource.
local function ratio(g, p, r, harbors)
  local best = 4
  for _, h in ipairs(harbors or g:harbors_of(p)) do
    if (h.resource == nil or h.resource == r) and h.ratio < best then best = h.ratio end
  end
  return g:filter("trade_ratio", best, p, r)
end

-- What p can give the bank now, as a flat list: resource, ratio, resource, ratio, ... in
-- RESOURCES order. A resource p holds none of is not asked its ratio (a ratio is 1 or more).
local function trade_gives(g, p)
  local hand, harbors, out = g:cards(p, "hand"), nil, {}
  for _, r in ipairs(RESOURCES) do
    local n = hand[r]
    if n and n > 0 then
      harbors = harbors or g:harbors_of(p)
      local k = ratio(g, p, r, harbors)
      if n >= k then
        out[#out + 1] = r
        out[#out + 1] = k
      end
    end
  end
  return out
end

action {
  name = "trade",
  phases = { "main", "trade" },
  syntax = "trade <cards> for <cards>",
  help = "maritime trade with the bank, e.g. `trade 4 ore for brick` (4:1 always; 3:1 or 2:1 at your harbors)",
  why_not = why_not_turn,
  when = function(g, p) return p == g:current() and may_trade(g) end,
  options = function(g, p)
    local out = {}
    local gives = trade_gives(g, p)
    if #gives == 0 then return out end
    local bank = g:cards(nil, "bank")
    for i = 1, #gives, 2 do
      local r, k = gives[i], gives[i + 1]
      for _, t in ipairs(RESOURCES) do
        if t ~= r and (bank[t] or 0) > 0 then out[#out + 1] = { { [r] = k }, { [t] = 1 } } end
      end
    end
    return out
  end,
  -- The trade `options` lists at x's place, counted instead of built (a bot's draw).
  sample = function(g, p, x)
    local gives = trade_gives(g, p)
    if #gives == 0 then return nil end
    local bank, stocked = g:cards(nil, "bank"), {}
    for _, t in ipairs(RESOURCES) do
      if (bank[t] or 0) > 0 then stocked[#stocked + 1] = t end
    end
    local count = 0
    for i = 1, #gives, 2 do
      count = count + #stocked - ((bank[gives[i]] or 0) > 0 and 1 or 0)
    end
    local left = (x * count) // 1
    for i = 1, #gives, 2 do
      local r = gives[i]
      for _, t in ipairs(stocked) do
        if t ~= r then
          if left == 0 then return { { [r] = gives[i + 1] }, { [t] = 1 } } end
          left = left - 1
        end
      end
    end
    return nil
  end,
  -- "The 4:1 trade is always possible, even if you do not have a settlement on a harbor":
  -- each card taken is paid with a group of one resource at any ratio from the player's
  -- best for it up to 4:1 (Almanac: 4 ore at a 2:1 ore harbor buy 1 card or 2).
  legal = function(g, p, give, get)
    local least, most, rates = 0, 0, {}
    for _, r in ipairs(RESOURCES) do
      local n = give[r]
      if n then
        local k = ratio(g, p, r)
        local worst = math.max(4, k)
        local lo, hi = (n + worst - 1) // worst, n // k
        if lo > hi then
          return deny(n .. " " .. r .. " cannot be traded: you trade " .. r .. " at "
            .. (k == worst and (k .. ":1") or (k .. ":1 to " .. worst .. ":1")))
        end
        least, most = least + lo, most + hi
        rates[#rates + 1] = r .. " at " .. k .. ":1"
      end
    end
    for r in pairs(give) do
      if not IS_RESOURCE[r] then return deny("only resource cards can be traded") end
    end
    for r, n in pairs(get) do
      if not IS_RESOURCE[r] then return deny("only resource cards can be traded") end
      if give[r] then return deny("you may not trade like for like") end
      if g:count(nil, "bank", r) < n then return deny("the bank has too few " .. r) end
    end
    local want = total(get)
    if most == 0 or want < least or want > most then
      local range = least == most and tostring(least) or (least .. " to " .. most)
      return deny("you trade " .. table.concat(rates, ", ") .. " (4:1 always): " .. cards_text(give)
        .. " buy " .. range .. " " .. plural(most, "card") .. ", not " .. want)
    end
    if not has(g, p, give) then return deny("you do not hold those cards") end
    return true
  end,
  apply = function(g, p, give, get)
    pay(g, p, give)
    for r, n in next, get do g:move(nil, "bank", p, "hand", r, n) end
    -- The usual trade, several of one kind for one card, is written by the engine.
    local r, n = only_kind(give)
    local t, m = only_kind(get)
    if IS_RESOURCE[r] and IS_RESOURCE[t] and n > 1 and m == 1 then
      g:log("%s trades %d %s to the bank for %s", name(g, p), n, r, t)
    else
      g:log(name(g, p) .. " trades " .. cards_text(give) .. " to the bank for " .. cards_text(get))
    end
    g:emit("traded", { seat = p, with = "bank", give = give, get = get })
  end,
}

-- Domestic Trade: only with the player whose turn it is; no gifts, no like for like, no
-- development cards. The active player offers; each other player accepts, declines or
-- counters; the active player then confirms a partner or cancels.
local function check_offer(give, get)
  if total(give) == 0 or total(get) == 0 then return "no gifts: both sides must give cards" end
  for r in pairs(give) do
    if not IS_RESOURCE[r] then return "only resource cards can be traded" end
    if get[r] then return "you may not trade like for like" end
  end
  for r in pairs(get) do
    if not IS_RESOURCE[r] then return "only resource cards can be traded" end
  end
end

action {
  name = "offer",
  phases = { "main", "trade" },
  syntax = "offer <cards> for <cards>",
  help = "offer the other players a trade, e.g. `offer ore for brick`",
  -- 5-6 Player Expansion: player 2 of a paired turn may not trade with other players.
  when = function(g, p) return p == g:current() and may_trade(g) and not g:get("paired") end,
  why_not = function(g, p)
    if p == g:current() and may_trade(g) and g:get("paired") then
      return "player 2 of a paired turn may not trade with other players, only with the bank"
    end
    return why_not_turn(g, p)
  end,
  legal = function(g, p, give, get)
    local bad = check_offer(give, get)
    if bad then return deny(bad) end
    if not has(g, p, give) then return deny("you do not hold those cards") end
    return true
  end,
  apply = function(g, p, give, get)
    g:set("offer", { from = p, give = give, get = get, responses = {}, counters = {}, phase = g:phase() })
    g:set_phase("offer")
    g:log(name(g, p) .. " offers " .. cards_text(give) .. " for " .. cards_text(get))
  end,
}

local function responding(g, p)
  if g:phase() ~= "offer" then return false end
  local offer = g:get("offer")
  return p ~= offer.from and not offer.responses[p]
end

local function respond(g, p, answer, counter)
  local offer = g:get("offer")
  offer.responses[p] = answer
  if counter then offer.counters[p] = counter end
  g:set("offer", offer)
end

action {
  name = "accept",
  phases = { "offer" },
  syntax = "accept",
  help = "accept the trade on offer",
  when = responding,
  legal = function(g, p)
    if not has(g, p, g:get("offer").get) then return deny("you do not hold the cards asked for") end
    return true
  end,
  apply = function(g, p)
    respond(g, p, "accept")
    g:log(name(g, p) .. " accepts")
  end,
}

action {
  name = "decline",
  phases = { "offer" },
  syntax = "decline",
  help = "decline the trade on offer",
  when = responding,
  apply = function(g, p)
    respond(g, p, "decline")
    g:log(name(g, p) .. " declines")
  end,
}

action {
  name = "counter",
  phases = { "offer" },
  syntax = "counter <cards> for <cards>",
  help = "counter the offer: the cards you give for the cards you want",
  when = responding,
  legal = function(g, p, give, get)
    local bad = check_offer(give, get)
    if bad then return deny(bad) end
    if not has(g, p, give) then return deny("you do not hold those cards") end
    return true
  end,
  apply = function(g, p, give, get)
    respond(g, p, "counter", { give = give, get = get })
    g:log(name(g, p) .. " counters: " .. cards_text(give) .. " for " .. cards_text(get))
  end,
}

local function all_answered(g)
  if g:phase() ~= "offer" then return false end
  local offer = g:get("offer")
  for _, q in ipairs(other_seats(g, offer.from)) do
    if not offer.responses[q] then return false end
  end
  return true
end

local function close_offer(g)
  local offer = g:get("offer")
  g:set("offer", nil)
  g:set_phase(offer.phase)
end

-- The terms a partner's answer stands for, from the active player's side.
local function terms(offer, q)
  local answer = offer.responses[q]
  if answer == "accept" then return offer.give, offer.get end
  if answer == "counter" then
    local c = offer.counters[q]
    return c.get, c.give
  end
end

action {
  name = "confirm",
  phases = { "offer" },
  syntax = "confirm <player>",
  help = "trade with a player who accepted or countered",
  when = function(g, p) return p == g:current() and all_answered(g) end,
  options = function(g, p)
    local offer, out = g:get("offer"), {}
    for _, q in ipairs(other_seats(g, p)) do
      local give, get = terms(offer, q)
      if give and has(g, p, give) and has(g, q, get) then out[#out + 1] = q end
    end
    return out
  end,
  legal = function(g, p, q)
    local give, get = terms(g:get("offer"), q)
    if not give then return deny(name(g, q) .. " did not accept or counter") end
    if not has(g, p, give) or not has(g, q, get) then return deny("one of you no longer holds the cards") end
    return true
  end,
  apply = function(g, p, q)
    local give, get = terms(g:get("offer"), q)
    for r, n in next, give do g:move(p, "hand", q, "hand", r, n) end
    for r, n in next, get do g:move(q, "hand", p, "hand", r, n) end
    g:log(name(g, p) .. " trades " .. cards_text(give) .. " to " .. name(g, q) .. " for " .. cards_text(get))
    close_offer(g)
    g:emit("traded", { seat = p, with = q, give = give, get = get })
  end,
}

action {
  name = "cancel",
  phases = { "offer" },
  syntax = "cancel",
  help = "withdraw your trade offer",
  when = function(g, p) return g:phase() == "offer" and p == g:get("offer").from end,
  apply = function(g, p)
    close_offer(g)
    g:log(name(g, p) .. " withdraws the offer")
  end,
}

-- End of turn ------------------------------------------------------------------------------

-- `p` ended the turn; the dice pass to `nxt`, whose turn begins with the roll.
local function next_turn(g, p, nxt)
  local turn = g:turn() + 1
  g:set_current(nxt)
  g:set_turn(turn)
  g:set_phase("roll")
  g:log("--- turn %d: %s ---", turn, name(g, nxt))
  g:emit("turn_ended", { seat = p })
  g:run("turn_begin", nxt)
end

-- With 5-6 players, what comes between two turns (defined in the 5-6 player section below);
-- returns true when it took over from next_turn.
local between_turns

action {
  name = "end",
  phases = { "main", "trade", "build" },
  syntax = "end",
  help = "end your turn and pass the dice to the left",
  why_not = why_not_turn,
  when = function(g, p) return p == g:current() and in_turn(g) end,
  apply = function(g, p)
    g:run("turn_end", p)
    -- Cards bought this turn become playable from the next turn on.
    if g:count(p, "dev_new") > 0 then
      for card, n in next, g:cards(p, "dev_new") do g:move(p, "dev_new", p, "dev", card, n) end
    end
    g:set("played_dev", false)
    g:set("last_roll", nil)
    if not between_turns(g, p) then next_turn(g, p, p % g:players() + 1) end
  end,
}

-- The 5-6 player game ---------------------------------------------------------------------
--
-- With 5 or 6 players base plays the 5-6 player game: the larger board and supply (HEXES_56
-- and the rest above, used by build_board and base.supply), two more colours, and one of two
-- turn structures, both real editions, chosen by option turn_structure:
--
--  * special_building: the 25th Anniversary 5-6 Player Rules (../shared/rules/003). After
--    each turn, every other player in clockwise order has a Special Building Phase: they may
--    build and buy development cards with the cards in hand, but not trade (with players or
--    the bank) nor play a development card.
--  * paired: the CATAN 5-6 Player Expansion, the newest rules (../shared/rules/001). Player 1
--    takes a whole turn; then player 2, the third player to player 1's left, takes an action
--    phase (no roll) in which they may not trade with other players, and wins at once with 10
--    points; then both markers pass to the left.
--
-- The hooks below are named base.*_56; the phase of a Special Building Phase is
-- "special_building", with the builder as g:current() and var special_building = the seat
-- whose turn it follows; during player 2's action phase var paired = { first, second }.

local function big_game(g) return g:players() >= 5 end
local function paired(g) return big_game(g) and opt(g, "turn_structure") == "paired" end

-- The seat of player 2 when `first` holds the player 1 marker: the third player to the left.
local function player_2_of(g, first) return (first + 2) % g:players() + 1 end

-- Special Building Phase (003: 5-6 Player Rules, The Special Building Phase) ---------------

-- Could `p` build or buy anything now from the cards in hand? Players who cannot are not
-- asked, and a builder who has nothing more to build is done.
local function can_special_build(g, p)
  if has(g, p, cost(g, "road", p)) and #road_spots(g, p) > 0 then return true end
  if g:supply(p, "settlement") > 0 and has(g, p, cost(g, "settlement", p)) and #settlement_sites(g, p) > 0 then
    return true
  end
  if g:supply(p, "city") > 0 and has(g, p, cost(g, "city", p)) and g:piece_count(p, "settlement") > 0 then
    return true
  end
  return g:count(nil, "deck") > 0 and has(g, p, cost(g, "development", p))
end

-- The next builder clockwise after seat `after` who can build, up to the player `from` whose
-- turn it follows; when nobody is left, the dice pass to `from`'s left.
local function special_building(g, from, after)
  local n = g:players()
  local q = after % n + 1
  while q ~= from do
    if can_special_build(g, q) then
      g:set("special_building", from)
      g:set_current(q)
      g:set_phase("special_building")
      g:log(name(g, q) .. ": special building phase")
      return
    end
    q = q % n + 1
  end
  g:set("special_building", nil)
  next_turn(g, from, from % n + 1)
end

-- A builder's Special Building Phase is over.
local function end_special_building(g, p)
  -- Cards bought now were not bought in the builder's own turn: they may be played in it.
  for card, n in next, g:cards(p, "dev_new") do g:move(p, "dev_new", p, "dev", card, n) end
  special_building(g, g:get("special_building"), p)
end

action {
  name = "pass",
  phases = { "special_building" },
  syntax = "pass",
  help = "end your Special Building Phase (5-6 players)",
  when = function(g, p) return p == g:current() end,
  apply = function(g, p) end_special_building(g, p) end,
}

-- A builder who can build nothing more is done without a `pass`. Runs before base.victory,
-- so a player whose turn begins with 10 points wins at once.
sequence("after_action", "base.special_building_56", function(g, seat, action)
  if g:phase() == "special_building" and not g:winner() and not can_special_build(g, g:current()) then
    end_special_building(g, g:current())
  end
end, { priority = -1 })

-- Paired turns (001: Rules for 5-6 Players) -------------------------------------------------

-- Seats holding the player 1 and player 2 markers, or nil when turns are not paired.
local function markers(g)
  if not paired(g) then return nil end
  local pair = g:get("paired")
  if pair then return pair.first, pair.second end
  local first = g:phase() == "setup" and g:get("starting_player") or g:current()
  return first, player_2_of(g, first)
end

between_turns = function(g, p)
  if not big_game(g) then return false end
  if not paired(g) then
    special_building(g, p, p)
    return true
  end
  local pair = g:get("paired")
  if pair then
    -- Player 2's action phase is over: the dice and both markers pass to the left.
    g:set("paired", nil)
    next_turn(g, p, pair.first % g:players() + 1)
    return true
  end
  -- Player 1's turn is over: player 2's action phase (no roll, no production).
  local second = player_2_of(g, p)
  g:set("paired", { first = p, second = second })
  g:set_current(second)
  g:set_phase(opt(g, "combined_trade_build") and "main" or "trade")
  g:log("--- " .. name(g, second) .. " (player 2): action phase, no trade with other players ---")
  g:emit("turn_ended", { seat = p })
  g:run("turn_begin", second)
  return true
end

sequence("turn_begin", "base.paired_56", function(g, p)
  if paired(g) and not g:get("paired") then
    local first, second = markers(g)
    g:log("player 1: " .. name(g, first) .. ", player 2: " .. name(g, second))
  end
end)

filter("describe", "base.describe_56", function(g, info, p)
  local first, second = markers(g)
  if p == first then info.marker = "player 1" elseif p == second then info.marker = "player 2" end
  return info
end)

-- Set-up ------------------------------------------------------------------------------------

-- No printed 5-6 starting pieces: fixed pieces only on the stand-in map.
local function fixed_56(g) return opt(g, "board") == "stand_in" and opt(g, "starting_pieces") end

filter("starting_pieces", "base.starting_pieces_56", function(g, fixed)
  if not big_game(g) then return fixed end
  if fixed_56(g) then return PIECES_56 end
  return nil
end)

-- 5-6 Player Expansion, Fixed Setup (4): in a 5-player game the players draw the colours at
-- random and one colour is not used; its settlements stay on the board without roads. The
-- colour drawn out is left out of the seats (the others keep their order), before the
-- starting pieces are placed.
sequence("setup", "base.colors_56", function(g)
  if g:players() ~= 5 or not fixed_56(g) then return end
  local colors = { "red", "blue", "white", "orange", "green", "brown" }
  local out = table.remove(colors, g:random(#colors))
  for p, c in ipairs(colors) do g:set_color(p, c) end
  g:set("unused_color", out)
end, { priority = -1 })

-- Its settlements are pieces of no player: they produce nothing and block like any other
-- player's building. Placed on the built board, before the players' pieces.
wrap_hook("base.start", function(start)
  return function(g)
    local out = g:get("unused_color")
    if out then
      for _, s in ipairs(PIECES_56[out].settlements) do g:place(nil, "settlement", s) end
      g:log("nobody plays " .. out .. ": its settlements stay on the board, without roads")
    end
    start(g)
  end
end)

-- Evaluation (bots) -------------------------------------------------------------------------

-- How good a position is for seat p, in victory points' units: the bots' search scores the
-- positions it reaches with it (docs/bots.md). Built from what a player weighs at the table:
-- points, expected production by number pips with a bonus for each resource produced,
-- harbors, development cards and knights, cards in hand towards the next build (and the risk
-- of a 7), and open sites for a next settlement. A child wraps or replaces "base.evaluate".
local function pips(number) return number and (6 - math.abs(7 - number)) or 0 end

-- What intersection `node` yields each roll: { by = { resource = pips }, sum = pips }, from
-- the board and the robber; kept in `scratch` for the rest of this evaluation (every call
-- into the game costs, so each hex and intersection is asked once).
local function yields(g, scratch, node)
  local ys = scratch.yields
  if not ys then
    ys, scratch.hexes, scratch.robber = {}, {}, g:marker("robber")
    scratch.yields = ys
  end
  local y = ys[node]
  if y then return y end
  y = { by = {}, sum = 0 }
  local hexes = scratch.hexes
  for _, h in ipairs(g:hexes_at(node)) do
    local x = hexes[h]
    if not x then
      local _, number = g:hex(h)
      x = { r = g:hex_resource(h), pips = pips(number) }
      hexes[h] = x
    end
    if x.r and h ~= scratch.robber then
      y.by[x.r] = (y.by[x.r] or 0) + x.pips
      y.sum = y.sum + x.pips
    end
  end
  ys[node] = y
  return y
end

-- The share of a price the hand covers (1: p can pay it).
local function covered(hand, price)
  local have, need = 0, 0
  for r, n in next, price do
    need = need + n
    have = have + math.min(hand[r] or 0, n)
  end
  return need > 0 and have / need or 0
end

local BUILDS = { { "city", 0.6 }, { "settlement", 0.6 }, { "development", 0.3 }, { "road", 0.15 } }

filter("evaluate", "base.evaluate", function(g, v, p, scratch)
  local winner = g:winner()
  if winner then return v + (winner == p and 100 or 0) end
  v = v + g:filter("victory_points", 0, p, true)
  scratch = scratch or {}
  local prod, kinds, sum = {}, 0, 0
  for _, kind in ipairs({ "settlement", "city" }) do
    local n = kind == "city" and 2 or 1
    for _, node in ipairs(g:pieces_of(p, kind)) do
      local y = yields(g, scratch, node)
      for r, k in next, y.by do prod[r] = (prod[r] or 0) + n * k end
      sum = sum + n * y.sum
    end
  end
  for _, r in ipairs(RESOURCES) do
    if (prod[r] or 0) > 0 then kinds = kinds + 1 end
  end
  v = v + 0.07 * sum + 0.2 * kinds
  for _, h in ipairs(g:harbors_of(p)) do
    if h.resource then
      v = v + math.min(0.4, 0.03 * (prod[h.resource] or 0) + 0.05)
    else
      v = v + 0.15
    end
  end
  -- Development cards (victory point cards are already in the points), knights played.
  local dev = g:count(p, "dev") + g:count(p, "dev_new")
  v = v + 0.3 * dev + 0.15 * g:count(p, "played") + 0.02 * g:longest_trail(p, "road")
  -- The hand: a little per card, more as it nears a build; over the discard limit it is at
  -- risk on a 7.
  local hand = g:cards(p, "hand")
  local n = total(hand)
  local spots = g:supply(p, "settlement") > 0 and g:open_intersections(2, p) or {}
  local can = {
    city = g:supply(p, "city") > 0 and g:piece_count(p, "settlement") > 0,
    settlement = #spots > 0,
    development = g:count(nil, "deck") > 0,
    road = g:supply(p, "road") > 0,
  }
  local best = 0
  if n > 0 then
    for _, b in ipairs(BUILDS) do
      local what, w = b[1], b[2]
      if can[what] and w > best then best = math.max(best, w * covered(hand, cost(g, what, p)) ^ 2) end
    end
  end
  v = v + 0.03 * n + best
  local limit = opt(g, "discard_limit")
  if n > limit then v = v - 0.08 * (n - limit) end
  -- Room to grow: open sites reachable by road, the best of them by its pips.
  if #spots > 0 then
    local top = 0
    for i = 1, math.min(#spots, 4) do top = math.max(top, yields(g, scratch, spots[i]).sum) end
    v = v + 0.2 * math.min(#spots, 2) + 0.02 * top
  end
  return v
end)
