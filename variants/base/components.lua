-- CATAN: the resources, the boards, the development deck and the prices (Building Costs).
-- Rulebook: Game Components; Starting Map for Beginners; Set-up, Variable (number tokens);
-- 5-6 Player Rules: Game Components, Assembling the Larger Board; Building Costs Card.
-- A part of ../base.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...

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

-- Building Costs card: what each piece and a development card cost. The engine starts the
-- "cost" filter from these (base.cost), and checks an action's declared `cost` against them
-- itself while no variant changes a price.
prices {
  road = { brick = 1, lumber = 1 },
  settlement = { brick = 1, lumber = 1, wool = 1, grain = 1 },
  city = { grain = 2, ore = 3 },
  development = { ore = 1, wool = 1, grain = 1 },
}

-- For the parts after this one.
shared.RESOURCES, shared.IS_RESOURCE, shared.RESOURCE_INDEX = RESOURCES, IS_RESOURCE, RESOURCE_INDEX
shared.BEGINNER_HEXES, shared.BEGINNER_HARBORS = BEGINNER_HEXES, BEGINNER_HARBORS
shared.BEGINNER_PIECES, shared.TOKENS = BEGINNER_PIECES, TOKENS
shared.DEVELOPMENT_DECK, shared.HEXES_56, shared.HARBORS_56 = DEVELOPMENT_DECK, HEXES_56, HARBORS_56
shared.TOKENS_56, shared.RESOURCE_CARDS_56 = TOKENS_56, RESOURCE_CARDS_56
shared.DEVELOPMENT_DECK_56, shared.PIECES_56 = DEVELOPMENT_DECK_56, PIECES_56
