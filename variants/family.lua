-- CATAN Family Edition (../shared/rules/000): base CATAN on an island of six double-sided
-- tiles, with the Family rules where they differ from base. Everything else is base.lua.
--
-- STAND-IN TILES. The printed island tiles (terrain, number and harbors of tiles 1A-6B)
-- and the printed Starting Set-up are not in our sources (../shared/reference/README.md).
-- TILES, SLOTS and START_PIECES below are well-formed stand-ins of our own; replacing them
-- with the printed ones is an edit of this data only.

variant {
  extends = "base",
  description = "CATAN Family Edition: six double-sided island tiles, the fixed first-game set-up, "
    .. "trade then build, the Family FAQ. The tiles and starting pieces are a balanced stand-in "
    .. "(the printed ones are not in our sources).",
  players = { min = 3, max = 4, default = 4 },
  options = {
    -- Re-declared base options: the Family rules as their defaults.
    { name = "board", type = "choice", choices = { "side_a", "side_b", "variable" }, default = "side_a",
      doc = "side_a: the first game (all tiles Side A, fixed arrangement); side_b: all Side B (Future "
        .. "Games); variable: tiles of a size swapped, sides mixed (Overview Sheet, Variable Set-up)" },
    { name = "starting_pieces", type = "bool", default = true,
      doc = "with board=side_a, the fixed Starting Set-up instead of the two set-up rounds" },
    { name = "combined_trade_build", type = "bool", default = false,
      doc = "Turn Overview: produce, then trade, then build; true: trade and build mixed" },
    { name = "shortage_exception", type = "bool", default = false,
      doc = "FAQ, Producing Resources: a resource in short supply goes to nobody; true: a lone player takes what is left" },
    { name = "longest_road_tie", type = "choice", choices = { "holder_keeps", "set_aside" }, default = "set_aside",
      doc = "FAQ, Longest Road: a broken road leaves a tie, holder included: the card is set aside (set_aside)" },
    { name = "three_player_out", type = "choice", choices = { "red", "blue", "white", "orange" }, default = "orange",
      doc = "Setting Up: with 3 players the orange pieces are removed" },
  },
}

-- Island data ------------------------------------------------------------------------------

-- The six tile positions of the island, in axial coordinates of pointy-top hexes. Tiles
-- of one size may trade places only where a turn of the island carries one position onto
-- the other hex for hex (here: the three 4-hex positions by 120 degrees, the two 2-hex
-- positions likewise).
local SLOTS = {
  { { 0, -2 }, { 1, -2 }, { 2, -2 }, { 1, -1 } },  -- 1: north (4 land hexes)
  { { 1, 0 }, { 2, -1 } },                         -- 2: east (2)
  { { 2, 0 }, { 1, 1 }, { 0, 2 }, { 0, 1 } },      -- 3: south-east (4)
  { { 0, 0 }, { -1, 1 }, { -1, 2 } },              -- 4: centre and south (3)
  { { -2, 2 }, { -2, 1 }, { -2, 0 }, { -1, 0 } },  -- 5: west (4)
  { { 0, -1 }, { -1, -1 } },                       -- 6: north-west (2)
}

-- STAND-IN. Tile i lies in position i in the first game. Each side lists its land hexes in
-- the order of that position's coordinates, { terrain, number }, and its harbors: `hex` is
-- the index in that list, `side` one of NE E SE SW W NW as the tile lies in position i.
-- Both sides of a tile carry the same terrains, the same number tokens and the same harbor
-- kinds, every hex of side B different from side A, so any mix of sides keeps the standard
-- island (4 forest, 4 pasture, 4 fields, 3 hills, 3 mountains, 1 desert; the 18 tokens 2-12;
-- 4 generic and 5 special harbors). Each side is balanced on its own: no 6 or 8 touch, each
-- resource has 9-11 pips (brick, ore) or 12-14 (the others), the 4-hex tiles 13-14 pips and
-- the small ones 5-7, at most three pairs of like terrain side by side. Harbors sit on the coast
-- away from a 4-hex tile's ends, so two harbors never share a corner however tiles are laid.
local TILES = {
  -- tile 1 (4 land hexes)
  { A = { hexes = { { "fields", 6 }, { "hills", 10 }, { "fields", 12 }, { "mountains", 6 } },
          harbors = { { hex = 1, side = "NW", ratio = 3 }, { hex = 2, side = "NE", resource = "ore", ratio = 2 } } },
    B = { hexes = { { "mountains", 6 }, { "fields", 12 }, { "fields", 6 }, { "hills", 10 } },
          harbors = { { hex = 1, side = "NE", resource = "ore", ratio = 2 }, { hex = 3, side = "NE", ratio = 3 } } } },
  -- tile 2 (2 land hexes)
  { A = { hexes = { { "pasture", 10 }, { "fields", 11 } },
          harbors = { { hex = 2, side = "E", resource = "grain", ratio = 2 } } },
    B = { hexes = { { "fields", 10 }, { "pasture", 11 } },
          harbors = { { hex = 2, side = "NE", resource = "grain", ratio = 2 } } } },
  -- tile 3 (4 land hexes)
  { A = { hexes = { { "hills", 8 }, { "forest", 3 }, { "fields", 9 }, { "forest", 4 } },
          harbors = { { hex = 1, side = "SE", ratio = 3 }, { hex = 3, side = "E", resource = "lumber", ratio = 2 } } },
    B = { hexes = { { "forest", 9 }, { "fields", 4 }, { "forest", 8 }, { "hills", 3 } },
          harbors = { { hex = 2, side = "E", resource = "lumber", ratio = 2 }, { hex = 3, side = "SE", ratio = 3 } } } },
  -- tile 4 (3 land hexes)
  { A = { hexes = { { "desert" }, { "mountains", 4 }, { "pasture", 9 } },
          harbors = { { hex = 3, side = "SW", ratio = 3 } } },
    B = { hexes = { { "mountains", 9 }, { "desert" }, { "pasture", 4 } },
          harbors = { { hex = 3, side = "SE", ratio = 3 } } } },
  -- tile 5 (4 land hexes)
  { A = { hexes = { { "forest", 8 }, { "hills", 11 }, { "pasture", 5 }, { "mountains", 3 } },
          harbors = { { hex = 1, side = "W", resource = "brick", ratio = 2 }, { hex = 3, side = "SW", ratio = 3 } } },
    B = { hexes = { { "mountains", 3 }, { "pasture", 5 }, { "forest", 11 }, { "hills", 8 } },
          harbors = { { hex = 1, side = "SW", resource = "brick", ratio = 2 }, { hex = 2, side = "W", ratio = 3 } } } },
  -- tile 6 (2 land hexes)
  { A = { hexes = { { "pasture", 2 }, { "forest", 5 } },
          harbors = { { hex = 2, side = "W", resource = "wool", ratio = 2 } } },
    B = { hexes = { { "forest", 2 }, { "pasture", 5 } },
          harbors = { { hex = 2, side = "NW", resource = "wool", ratio = 2 } } } },
}

-- STAND-IN Starting Set-up for the first game (all Side A), by colour: intersection labels
-- and roads "a-b" (the island has the base board's shape and labels). The second
-- settlement is the starred one; it pays exactly the starting resources the rules list:
-- blue lumber brick ore, white wool lumber ore, orange 2 grain ore, red 2 lumber grain.
-- Each colour's two settlements reach all five resources with 18 pips; random bots win
-- 23-28% per seat over 500 seeded games (`catan sim --variant family --games 500 --seed 2`).
local START_PIECES = {
  blue = { settlements = { 50, 40 }, roads = { "50-53", "35-40" } },
  white = { settlements = { 5, 23 }, roads = { "1-5", "17-23" } },
  orange = { settlements = { 32, 15 }, roads = { "26-32", "11-15" } },
  red = { settlements = { 14, 42 }, roads = { "14-19", "42-47" } },
}

-- Building the island ----------------------------------------------------------------------

local DIRS = { NE = { 1, -1 }, E = { 1, 0 }, SE = { 0, 1 }, SW = { -1, 1 }, W = { -1, 0 }, NW = { 0, -1 } }

local function turn(q, r, k)
  for _ = 1, k do q, r = -r, q + r end -- 60 degrees clockwise
  return q, r
end

local function turn_side(side, k)
  local q, r = turn(DIRS[side][1], DIRS[side][2], k)
  for name, d in pairs(DIRS) do
    if d[1] == q and d[2] == r then return name end
  end
end

-- How many 60-degree turns carry position `from` onto position `to`, hex for hex.
local function turns(from, to)
  for k = 0, 5 do
    local fits = #SLOTS[from] == #SLOTS[to]
    for i, h in ipairs(SLOTS[from]) do
      local q, r = turn(h[1], h[2], k)
      if not fits or SLOTS[to][i][1] ~= q or SLOTS[to][i][2] ~= r then fits = false break end
    end
    if fits then return k end
  end
end

-- The layout of an arrangement: `placed[slot] = { tile = t, side = "A" or "B" }`.
local function layout(placed)
  local hexes, harbors, where = {}, {}, {}
  for slot, at in ipairs(placed) do
    local k = turns(at.tile, slot) or error("tile " .. at.tile .. " does not fit position " .. slot)
    local face = TILES[at.tile][at.side]
    for i, h in ipairs(SLOTS[slot]) do
      hexes[#hexes + 1] = { q = h[1], r = h[2], terrain = face.hexes[i][1], number = face.hexes[i][2] }
      where[slot .. ":" .. i] = hexes[#hexes]
    end
    for _, hb in ipairs(face.harbors) do
      harbors[#harbors + 1] = { at = where[slot .. ":" .. hb.hex], side = turn_side(hb.side, k),
                                resource = hb.resource, ratio = hb.ratio }
    end
  end
  -- Hexes in reading order, so H1..H19 read like the base board's labels.
  table.sort(hexes, function(a, b) return a.r < b.r or (a.r == b.r and a.q < b.q) end)
  local index = {}
  for i, h in ipairs(hexes) do index[h] = i end
  for _, hb in ipairs(harbors) do hb.hex = index[hb.at]; hb.at = nil end
  return { hexes = hexes, harbors = harbors }
end

-- No 6 or 8 next to another 6 or 8.
local function reds_apart(lay)
  local red = {}
  for _, h in ipairs(lay.hexes) do
    if h.number == 6 or h.number == 8 then red[h.q .. "," .. h.r] = true end
  end
  for _, h in ipairs(lay.hexes) do
    if red[h.q .. "," .. h.r] then
      for _, d in pairs(DIRS) do
        if red[(h.q + d[1]) .. "," .. (h.r + d[2])] then return false end
      end
    end
  end
  return true
end

-- Variable Set-up (Overview Sheet): tiles of the same size trade places at random, each
-- tile shows a random side; drawn again until no 6/8 touch (as in base's random board).
local function variable(g)
  for _ = 1, 1000 do
    local placed, groups = {}, {}
    for slot in ipairs(SLOTS) do
      local n = #SLOTS[slot]
      groups[n] = groups[n] or {}
      table.insert(groups[n], slot)
    end
    for _, slots in pairs(groups) do
      local tiles = g:shuffled(slots)
      for i, slot in ipairs(slots) do
        placed[slot] = { tile = tiles[i], side = g:random(2) == 1 and "A" or "B" }
      end
    end
    local lay = layout(placed)
    if reds_apart(lay) then return lay end
  end
  error("no variable arrangement keeps the 6s and 8s apart: check the tiles")
end

replace_hook("base.board", function(g)
  local kind = g:option("board")
  local lay
  if kind == "variable" then
    lay = variable(g)
  else
    local placed = {}
    for slot in ipairs(SLOTS) do placed[slot] = { tile = slot, side = kind == "side_b" and "B" or "A" } end
    lay = layout(placed)
  end
  g:build_board(lay)
  for h = 1, g:hex_count() do
    if g:hex(h) == "desert" then g:set_marker("robber", h) break end
  end
end)

-- Setting Up the Game: the first game starts from the fixed pieces; the youngest player
-- starts (option first_player: their seat; 0, the first seat).
filter("starting_pieces", "family.starting_pieces", function(g, pieces)
  if g:option("board") == "side_a" and g:option("starting_pieces") then return START_PIECES end
  return pieces
end)
