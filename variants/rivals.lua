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
-- has room; the two regions of a new settlement drawn from the stack go above, then below;
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
    { name = "roads", owner = "game", visibility = "public" },
    { name = "settlements", owner = "game", visibility = "public" },
    { name = "cities", owner = "game", visibility = "public" },
    { name = "regions", owner = "game", stack = true, visibility = "hidden" },
    -- The four draw stacks of the Introductory Game (Other Preparations 3).
    { name = "stack1", owner = "game", stack = true, visibility = "hidden" },
    { name = "stack2", owner = "game", stack = true, visibility = "hidden" },
    { name = "stack3", owner = "game", stack = true, visibility = "hidden" },
    { name = "stack4", owner = "game", stack = true, visibility = "hidden" },
    { name = "events", owner = "game", stack = true, visibility = "hidden" },
    -- The event card being resolved (and, while the deck is rebuilt, the whole deck).
    { name = "revealed", owner = "game", visibility = "public" },
    -- Played action cards (Action Cards: "a discard pile used by both players").
    { name = "discard", owner = "game", stack = true, visibility = "public" },
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
}

-- Constants ------------------------------------------------------------------------------

local P = "principality"
local ROWS, COLS, CENTER = 5, 25, 3
local MAX_STORE = 3
local RESOURCES = { "brick", "grain", "wool", "lumber", "ore", "gold" }
local IS_RESOURCE = { brick = true, grain = true, wool = true, lumber = true, ore = true, gold = true }
local STACKS = { "stack1", "stack2", "stack3", "stack4" }

local REGION_RESOURCE = {
  fields = "grain", mountains = "ore", hills = "brick", forest = "lumber", pasture = "wool", gold_field = "gold",
}

-- Starting principalities (rivals_setup.md 3): { region, die, row, column } per seat;
-- settlements on L3 and N3 with the road on M3 between them.
local START_REGIONS = {
  { { "forest", 2, 2, 11 }, { "gold_field", 1, 2, 13 }, { "fields", 6, 2, 15 },
    { "hills", 3, 4, 11 }, { "pasture", 4, 4, 13 }, { "mountains", 5, 4, 15 } },
  { { "forest", 3, 2, 11 }, { "gold_field", 4, 2, 13 }, { "fields", 5, 2, 15 },
    { "hills", 2, 4, 11 }, { "pasture", 1, 4, 13 }, { "mountains", 6, 4, 15 } },
}
-- The region stack (rivals_setup.md 4): two cards of each type.
local STACK_REGIONS = {
  fields = { 1, 3 }, mountains = { 2, 4 }, hills = { 1, 5 }, forest = { 4, 6 }, pasture = { 5, 6 }, gold_field = { 2, 3 },
}

local CENTER_COST = {
  road = { brick = 2, lumber = 1 },
  settlement = { brick = 1, grain = 1, wool = 1, lumber = 1 },
  city = { grain = 2, ore = 3 },
}

-- The event die (rivals_setup.md 5): what each face means; two faces show the "?".
local EVENT_FACES = { "brigand", "trade", "celebration", "harvest", "event", "event" }
local FACE_TEXT = {
  brigand = "brigand attack", trade = "trade", celebration = "celebration", harvest = "plentiful harvest",
  event = "event card",
}

-- Cards ------------------------------------------------------------------------------------
-- type: region | center | building | hero | ship | action | event. Expansions (building,
-- hero, ship) have a placement ("settlement_city" for the green text box; the Theme Sets
-- add "city" and "region"), a cost, printed points (vp, strength, commerce, skill,
-- progress), `one_x` for the "1x" mark and `copies` in the Basic Set draw stacks.

local CARDS = {}
local function card(def)
  assert(type(def.name) == "string", "a card needs a name")
  CARDS[def.name] = def
  return def
end

for rtype, resource in pairs(REGION_RESOURCE) do
  for _, die in ipairs({ 1, 2, 3, 4, 5, 6 }) do
    card({ name = rtype .. "_" .. die, type = "region", region = rtype, resource = resource, die = die })
  end
end
card({ name = "road", type = "center" })
card({ name = "settlement", type = "center", town = true, vp = 1 })
card({ name = "city", type = "center", town = true, city = true, vp = 2 })

local function expansion(def)
  def.placement = def.placement or "settlement_city"
  def.copies = def.copies or 1
  return card(def)
end

-- Buildings (Card Index: Settlement/City Expansions).
expansion({ name = "abbey", text = "1 progress point: hold 1 more card (1x)", type = "building", copies = 2, one_x = true, cost = { brick = 1, grain = 1, ore = 1 }, progress = 1 })
expansion({ name = "marketplace", text = "1 commerce; when the opponent has more regions with the number rolled, take 1 resource those produce (1x)", type = "building", copies = 2, one_x = true, cost = { grain = 1, wool = 1 }, commerce = 1 })
expansion({ name = "parish_hall", text = "searching a draw stack costs 1 resource instead of 2 (1x)", type = "building", copies = 2, one_x = true, cost = { brick = 1, grain = 1 } })
expansion({ name = "storehouse", text = "the regions left and right of it are not counted in a brigand attack", type = "building", copies = 2, cost = { wool = 1, lumber = 1 } })
expansion({ name = "toll_bridge", text = "1 commerce; 2 more gold on a plentiful harvest", type = "building", cost = { brick = 1, lumber = 1 }, commerce = 1 })
-- Production boosters: double what the adjacent regions of their type produce.
expansion({ name = "brick_factory", text = "doubles the brick of the hills next to it", type = "building", cost = { brick = 1, ore = 1 }, boosts = "brick" })
expansion({ name = "grain_mill", text = "doubles the grain of the fields next to it", type = "building", cost = { grain = 1, lumber = 1 }, boosts = "grain" })
expansion({ name = "iron_foundry", text = "doubles the ore of the mountains next to it", type = "building", cost = { brick = 1, ore = 1 }, boosts = "ore" })
expansion({ name = "lumber_camp", text = "doubles the lumber of the forests next to it", type = "building", cost = { lumber = 1, ore = 1 }, boosts = "lumber" })
expansion({ name = "weavers_shop", text = "doubles the wool of the pastures next to it", type = "building", cost = { wool = 1, lumber = 1 }, boosts = "wool" })
-- Units: trade ships (2:1 in their resource) and the Large Trade Ship.
for _, r in ipairs({ "brick", "grain", "lumber", "wool", "ore", "gold" }) do
  expansion({ name = r .. "_ship", type = "ship", cost = { wool = 1, lumber = 1 }, commerce = 1, ship = r,
    text = "1 commerce; trade 2 " .. r .. " for 1 resource of your choice" })
end
expansion({ name = "large_trade_ship", text = "1 commerce; trade 2 resources of the region left or right of it for 1", type = "ship", cost = { wool = 1, lumber = 1 }, commerce = 1, large_ship = true })
-- Units: the six common heroes (strength and skill only).
expansion({ name = "austin", type = "hero", cost = { grain = 1, ore = 1 }, strength = 1, skill = 2 })
expansion({ name = "harald", type = "hero", cost = { grain = 1, ore = 1 }, strength = 2, skill = 1 })
expansion({ name = "inga", type = "hero", cost = { grain = 1, wool = 1, ore = 1 }, strength = 1, skill = 3 })
expansion({ name = "osmund", type = "hero", cost = { grain = 1, wool = 1, ore = 1 }, strength = 2, skill = 2 })
expansion({ name = "candamir", type = "hero", cost = { grain = 1, wool = 2, ore = 1 }, strength = 4, skill = 1 })
expansion({ name = "siglind", type = "hero", cost = { grain = 1, wool = 2, ore = 1 }, strength = 2, skill = 3 })
-- Action cards.
card({ name = "brigitta", text = "before rolling, choose the production die", type = "action", copies = 2 })
card({ name = "goldsmith", text = "pay 3 gold, take any 2 resources", type = "action", copies = 2 })
card({ name = "merchant_caravan", text = "exchange any 2 of your resources for any 2", type = "action", copies = 2 })
card({ name = "relocation", text = "swap 2 of your regions or 2 of your expansion cards", type = "action", copies = 1 })
card({ name = "scout", text = "when you build a settlement, choose its 2 regions from the region stack", type = "action", copies = 2 })
-- Event cards (handlers below).
card({ name = "feud", type = "event", copies = 1 })
card({ name = "fraternal_feuds", type = "event", copies = 1 })
card({ name = "invention", type = "event", copies = 1 })
card({ name = "trade_ships_race", type = "event", copies = 1 })
card({ name = "traveling_merchant", type = "event", copies = 2 })
card({ name = "year_of_plenty", type = "event", copies = 2 })
card({ name = "yule", type = "event", copies = 1 })

local EXPANSION_TYPE = { building = true, hero = true, ship = true }

-- What a player is told about a card: its cost, points and effect.
local function card_text(kind)
  local d = CARDS[kind]
  if not d then return kind end
  local parts = {}
  if d.cost then
    local c = {}
    for _, r in ipairs({ "brick", "grain", "wool", "lumber", "ore", "gold" }) do
      if (d.cost[r] or 0) > 0 then c[#c + 1] = (d.cost[r] > 1 and (d.cost[r] .. " ") or "") .. r end
    end
    parts[#parts + 1] = "costs " .. table.concat(c, ", ")
  end
  if d.type == "hero" then parts[#parts + 1] = "hero: strength " .. d.strength .. ", skill " .. d.skill end
  if d.type == "action" then parts[#parts + 1] = "action card" end
  if d.text then parts[#parts + 1] = d.text end
  return kind:gsub("_", " ") .. " (" .. table.concat(parts, "; ") .. ")"
end

-- Small helpers ------------------------------------------------------------------------------

local next = next

local function copy(t)
  local c = {}
  for k, v in next, t do c[k] = v end
  return c
end

local function contains(list, x)
  for _, v in ipairs(list) do if v == x then return true end end
  return false
end

local function other(p) return 3 - p end

local function name(g, p) return g:color(p) end

local function title(kind) return (kind:gsub("_", " ")) end

local function cards_text(cards)
  local parts = {}
  for _, r in ipairs(RESOURCES) do
    local n = cards[r]
    if n and n > 0 then parts[#parts + 1] = (n == 1 and r) or (n .. " " .. r) end
  end
  if #parts == 0 then return "nothing" end
  return table.concat(parts, " ")
end

local function total(cards)
  local n = 0
  for _, v in next, cards do n = n + v end
  return n
end

local function order_from(g, first)
  return { first, other(first) }
end

-- Geometry of a principality -------------------------------------------------------------------

local function in_grid(r, c) return r >= 1 and r <= ROWS and c >= 1 and c <= COLS end

local function top(g, p, r, c)
  if not in_grid(r, c) then return nil end
  return (g:slot(p, P, r, c))
end

-- The region row on the same side as row r (2 above the centre row, 4 below).
local function side_row(r) if r < CENTER then return CENTER - 1 end return CENTER + 1 end
-- The outer row beyond region row r.
local function outer_row(r) if r < CENTER then return 1 end return ROWS end

-- The regions a card on a building site touches: left and right on its side (for a city's
-- extra site, the diagonally contiguous regions: Building a City, "Important").
local function site_regions(r, c)
  local s = side_row(r)
  return { { s, c - 1 }, { s, c + 1 } }
end

-- The building sites next to a region: left and right of it, on its row and the outer row.
local function region_sites(r, c)
  local o = outer_row(r)
  return { { r, c - 1 }, { r, c + 1 }, { o, c - 1 }, { o, c + 1 } }
end

local function label(g, p, r, c) return g:slot_label(p, P, r, c) end

-- A label of p's own principality: row, column; nil if it is not one.
local function own(g, p, lbl)
  local owner, grid, r, c = g:slot_at(lbl)
  if grid ~= P or owner ~= p then return nil end
  return r, c
end

-- Every card in play in p's principality with its definition: { row, col, card, store, def }.
-- Rules ask for it several times an action, so it is built once per state (`g:cached`):
-- callers read it and never change it. The cards change rarely and the stores on most
-- actions, so the list is kept while the cards stay ("seat_cards") and each entry's
-- `store` is read from the grid when asked, never kept.
local LIVE_STORE = {
  __index = function(s, k)
    if k == "store" then return s.g:store(s.owner, P, s.row, s.col) end
  end,
}
local function read_placed(g, p)
  local out = {}
  for _, s in ipairs(g:slots(p, P)) do
    if s.card then
      s.def, s.store, s.g, s.owner = CARDS[s.card], nil, g, p
      out[#out + 1] = setmetatable(s, LIVE_STORE)
    end
  end
  return out
end
local function placed(g, p) return g:cached(read_placed, p, "seat_cards") end

local NO_CARDS = {} -- an empty list of cards, shared (read only, as every list kept below)

-- The helpers below take an optional `ps`, the result of placed(g, p) on the same state,
-- so that one rule reads the principality once; those that keep their own answer with
-- `g:cached` need not look at it (asking `placed` again only to compare would cost a
-- lookup of its own, in every bot's draw).
-- The cards of p's principality whose definition `keeps`, of one resource or of all: the
-- whole list is kept with the cards, like `placed` (callers read it and never change it).
local function kept_cards(keeps)
  local function all(g, p)
    local out = {}
    for _, s in ipairs(placed(g, p)) do
      local d = s.def
      if d and keeps(d) then out[#out + 1] = s end
    end
    return out
  end
  -- The same cards by resource, kept alike: paying and receiving ask one resource at a time.
  local function by_resource(g, p)
    local out = {}
    for _, s in ipairs(g:cached(all, p, "seat_cards")) do
      local r = s.def.resource
      if r then
        local list = out[r]
        if not list then list = {}; out[r] = list end
        list[#list + 1] = s
      end
    end
    return out
  end
  return function(g, p, resource)
    if not resource then return g:cached(all, p, "seat_cards") end
    return g:cached(by_resource, p, "seat_cards")[resource] or NO_CARDS
  end
end

local regions = kept_cards(function(d) return d.type == "region" end)

-- Everything that stores resources of p: the regions and, from the Theme Sets, expansions
-- with `stores = true` and a `resource` (the Gold Cache), through which paying, receiving
-- and counting resources go (often: paying, receiving and counting ask it).
local holders = kept_cards(function(d) return d.type == "region" or d.stores end)

-- p's trade ships, kept the same way (the exchange rate asks for them per resource).
local ships = kept_cards(function(d) return d.type == "ship" end)

local function expansions(g, p, kind_type, ps)
  local out = {}
  for _, s in ipairs(ps or placed(g, p)) do
    local d = s.def
    if d and EXPANSION_TYPE[d.type] and (not kind_type or d.type == kind_type) then out[#out + 1] = s end
  end
  return out
end

-- Columns of p's settlements and cities: { col, city = bool }.
local function towns(g, p, ps)
  local out = {}
  for _, s in ipairs(ps or placed(g, p)) do
    if s.row == CENTER and s.def and s.def.town then out[#out + 1] = { col = s.col, city = s.def.city == true } end
  end
  return out
end

local function center_span(g, p)
  local lo, hi
  for _, s in ipairs(placed(g, p)) do
    if s.row == CENTER then
      if not lo or s.col < lo then lo = s.col end
      if not hi or s.col > hi then hi = s.col end
    end
  end
  return lo, hi
end

-- Open ends of the centre row: beyond an end settlement/city a road may go (Building a
-- Road), beyond an end road a settlement (Building a Settlement).
local function end_sites(g, p, after)
  local lo, hi = center_span(g, p)
  local out = {}
  if not lo then return out end
  for _, e in ipairs({ { lo, -1 }, { hi, 1 } }) do
    local c = e[1] + e[2]
    local d = CARDS[top(g, p, CENTER, e[1]) or ""]
    local ok = d and ((after == "town" and d.town) or (after == "road" and e[1] and d.name == "road"))
    if ok and in_grid(CENTER, c) and not top(g, p, CENTER, c) then out[#out + 1] = c end
  end
  return out
end
local function road_sites(g, p) return end_sites(g, p, "town") end
local function settlement_sites(g, p) return end_sites(g, p, "road") end

-- Empty positions where card `kind` may be placed (Settlement/City Expansions: an empty
-- building site next to a settlement or city; a city has two more, above and below).
local function sites(g, p, kind, ps)
  local d = CARDS[kind]
  local out = {}
  if not d or not d.placement then return out end
  if d.placement == "region" then
    for _, s in ipairs(regions(g, p)) do
      local r = outer_row(s.row)
      if not top(g, p, r, s.col) then out[#out + 1] = { r, s.col } end
    end
  else
    for _, t in ipairs(towns(g, p, ps)) do
      if d.placement == "settlement_city" or (d.placement == "city" and t.city) then
        local rows = t.city and { 1, 2, 4, 5 } or { 2, 4 }
        for _, r in ipairs(rows) do
          if not top(g, p, r, t.col) then out[#out + 1] = { r, t.col } end
        end
      end
    end
  end
  table.sort(out, function(a, b) if a[1] ~= b[1] then return a[1] < b[1] end return a[2] < b[2] end)
  return g:filter("sites", out, p, kind)
end

-- Could card `kind` stand at (r, c), occupancy aside? (Relocation keeps placement rules.)
local function fits(g, p, kind, r, c)
  local d = CARDS[kind]
  if not d or not d.placement then return false end
  if d.placement == "region" then
    local s = CARDS[top(g, p, side_row(r), c) or ""]
    return (r == 1 or r == ROWS) and s ~= nil and s.type == "region"
  end
  if r == CENTER then return false end
  local t = CARDS[top(g, p, CENTER, c) or ""]
  if not t or not t.town then return false end
  if r == 1 or r == ROWS then return t.city == true end
  return d.placement == "settlement_city" or t.city == true
end

-- Points and resources ----------------------------------------------------------------------

-- The printed points of p's principality (Strength Advantage and Trade Advantage; Skill
-- and Progress Points), through the `tally` filter.
local function sum_points(ps)
  local vp, strength, commerce, skill, progress = 0, 0, 0, 0, 0
  for i = 1, #ps do
    local d = ps[i].def
    if d then
      vp, strength = vp + (d.vp or 0), strength + (d.strength or 0)
      commerce, skill, progress = commerce + (d.commerce or 0), skill + (d.skill or 0), progress + (d.progress or 0)
    end
  end
  return { vp = vp, strength = strength, commerce = commerce, skill = skill, progress = progress }
end

-- The points of p's principality after the `tally` filters (g, points, seat). A `tally`
-- filter reads only the seat's principality, its cards (as rivals_gold's Harbor and Salt
-- Silo do), so the tally is kept while they stay: the advantages ask for both seats' after
-- every action. Callers read it, never change it.
local function read_tally(g, p) return g:filter("tally", sum_points(placed(g, p)), p) end

local function tally(g, p) return g:cached(read_tally, p, "seat_cards") end

local function points(g, p)
  local v = tally(g, p).vp
  if g:get("hero") == p then v = v + 1 end
  if g:get("trade_token") == p then v = v + 1 end
  return v
end

-- Replenishing Your Hand: 3 cards plus 1 per progress point.
local function hand_limit(g, p) return g:filter("hand_limit", 3 + tally(g, p).progress, p) end

local function count_stock(list)
  local have = {}
  for _, r in ipairs(RESOURCES) do have[r] = 0 end
  for _, s in ipairs(list) do have[s.def.resource] = have[s.def.resource] + s.store end
  return have
end
local function read_stock(g, p) return count_stock(holders(g, p)) end
-- What p has of each resource. Kept while p's grids stay as they are (`g:cached`):
-- callers read it and never change it.
local function stock(g, p) return g:cached(read_stock, p, "seat_grids") end

local function stock_total(g, p)
  local n = 0
  for _, s in ipairs(holders(g, p)) do n = n + s.store end
  return n
end

local function can_pay(g, p, cost)
  local have = stock(g, p)
  for r, n in next, cost do
    if (have[r] or 0) < n then return false end
  end
  return true
end

-- Pays from the region of each type holding the most.
-- (The holders are read once per resource and their stores followed here: reading them
-- again after each unit would rebuild the principality's cards every time.)
local function pay(g, p, cost)
  for _, r in ipairs(RESOURCES) do
    local n = cost[r] or 0
    if n > 0 then
      local hs, left = holders(g, p, r), {}
      for i, s in ipairs(hs) do left[i] = s.store end
      for _ = 1, n do
        local best
        for i = 1, #hs do
          if left[i] > 0 and (not best or left[i] > left[best]) then best = i end
        end
        if not best then error("cannot pay " .. r .. " (a rule let an unaffordable action through)") end
        left[best] = left[best] - 1
        g:set_store(p, P, hs[best].row, hs[best].col, left[best])
      end
    end
  end
end

-- Adds up to n to one region, at most 3 stored (Regions); returns what was stored.
local function store_at(g, p, r, c, n)
  local have = g:store(p, P, r, c)
  local put = math.min(n, MAX_STORE - have)
  if put > 0 then g:set_store(p, P, r, c, have + put) end
  return math.max(put, 0)
end

-- Receives n of a resource into the regions of its type holding the least; what finds
-- no room is lost. Returns what was stored.
local function gain(g, p, r, n)
  local got = 0
  local hs, have = holders(g, p, r), {}
  for i, s in ipairs(hs) do have[i] = s.store end
  for _ = 1, n do
    local best
    for i = 1, #hs do
      if have[i] < MAX_STORE and (not best or have[i] < have[best]) then best = i end
    end
    if not best then break end
    have[best] = have[best] + 1
    g:set_store(p, P, hs[best].row, hs[best].col, have[best])
    got = got + 1
  end
  return got
end

-- The kind and count of a cards table holding one kind, else nil (a loop, not next(t):
-- which key next gives first differs between runs).
local function only_kind(cards)
  local kind, n, kinds = nil, 0, 0
  for k, v in next, cards do kind, n, kinds = k, v, kinds + 1 end
  if kinds == 1 then return kind, n end
end

-- cards_text({ [r] = n }) without the table.
local function one_text(r, n)
  if n > 0 and IS_RESOURCE[r] then return n == 1 and r or (n .. " " .. r) end
  return cards_text({ [r] = n })
end

local function gain_text(g, p, r, n, got)
  if got == n then return name(g, p) .. " receives " .. one_text(r, n) end
  return name(g, p) .. " receives " .. one_text(r, got) .. " (" .. (n - got) .. " " .. r
    .. " lost: no room in the regions)"
end

local function cost(g, what, p)
  local base = CENTER_COST[what] or (CARDS[what] and CARDS[what].cost) or {}
  return g:filter("cost", copy(base), what, p)
end

-- Multisets of n resources: { ore = 2 }, { ore = 1, wool = 1 }, ...; within `have` if given.
local function combos(n, have)
  local out = {}
  local function rec(i, left, cur)
    if left == 0 then out[#out + 1] = copy(cur) return end
    if i > #RESOURCES then return end
    local r = RESOURCES[i]
    local most = left
    if have then most = math.min(most, have[r] or 0) end
    for k = most, 0, -1 do
      cur[r] = k > 0 and k or nil
      rec(i + 1, left - k, cur)
    end
    cur[r] = nil
  end
  rec(1, n, {})
  return out
end

local function resources_only(cards)
  for k in next, cards do
    if not IS_RESOURCE[k] then return false end
  end
  return true
end

-- Advantages -----------------------------------------------------------------------------------

-- Strength Advantage and Trade Advantage: at least 3 points and more than the opponent
-- takes the token; the holder keeps it until below 3 or below the opponent, who then takes
-- it with 3 or more, else it is set aside.
-- `one`, `two`: the points of each seat (no table per check: it runs after every action).
local function update_token(g, key, field, what, one, two)
  local holder = g:get(key)
  local new = holder
  if holder then
    local mine, theirs = one, two
    if holder == 2 then mine, theirs = two, one end
    if mine < 3 or mine < theirs then
      new = (theirs >= 3 and theirs > mine) and other(holder) or nil
    end
  else
    if one >= 3 and one > two then new = 1 end
    if two >= 3 and two > one then new = 2 end
  end
  if new ~= holder then
    g:set(key, new)
    if new then
      g:log(name(g, new) .. " takes the " .. what .. " (" .. (new == 1 and one or two) .. " " .. field .. " points)")
    else
      g:log("the " .. what .. " is set aside")
    end
    g:emit("advantage_changed", { token = key, from = holder, to = new })
  end
end

local function update_advantages(g)
  local t1, t2 = tally(g, 1), tally(g, 2)
  update_token(g, "hero", "strength", "hero token", t1.strength, t2.strength)
  update_token(g, "trade_token", "commerce", "trade token", t1.commerce, t2.commerce)
end

sequence("after_action", "rivals.advantages", function(g)
  if g:winner() then return end
  update_advantages(g)
end)

filter("victory_points", "rivals.points", function(g, v, p) return v + points(g, p) end)

filter("describe", "rivals.describe", function(g, info, p)
  local ps = placed(g, p)
  local t = tally(g, p)
  info.strength, info.commerce, info.skill, info.progress = t.strength, t.commerce, t.skill, t.progress
  info.hero_token = g:get("hero") == p
  info.trade_token = g:get("trade_token") == p
  info.hand = g:count(p, "hand")
  info.hand_limit = hand_limit(g, p)
  local tokens = {}
  if info.hero_token then tokens[#tokens + 1] = "hero token" end
  if info.trade_token then tokens[#tokens + 1] = "trade token" end
  info.summary = string.format("strength %d  commerce %d  skill %d  progress %d  hand %d/%d%s",
    t.strength, t.commerce, t.skill, t.progress, info.hand, info.hand_limit,
    #tokens > 0 and ("  [" .. table.concat(tokens, ", ") .. "]") or "")
  return info
end)

filter("to_act", "rivals.to_act", function(g, seat)
  if g:phase() == "choose" then
    local task = g:get("queue", 1)
    if task then return task.seat end
  end
  return seat
end)

-- Set-up ---------------------------------------------------------------------------------------

local function event_list()
  local out = {}
  for _, k in ipairs({ "feud", "fraternal_feuds", "invention", "trade_ships_race", "traveling_merchant",
    "year_of_plenty" }) do
    for _ = 1, CARDS[k].copies do out[#out + 1] = k end
  end
  return out
end

-- Prepare the event deck (Other Preparations 5 and "To Prepare a New Event Deck"): every
-- event card is gathered in `revealed`; Yule aside, the rest shuffled; 3 cards, then Yule,
-- then the rest on top.
local function build_event_deck(g)
  local events = g:cards(nil, "events")
  for _, k in ipairs(events) do g:move(nil, "events", nil, "revealed", k) end
  local rest = {}
  for k, n in pairs(g:cards(nil, "revealed")) do
    if k ~= "yule" then
      for _ = 1, n do rest[#rest + 1] = k end
    end
  end
  rest = g:shuffled(rest)
  for i = 1, math.min(3, #rest) do g:move(nil, "revealed", nil, "events", rest[i]) end
  if g:count(nil, "revealed", "yule") > 0 then g:move(nil, "revealed", nil, "events", "yule") end
  for i = 4, #rest do g:move(nil, "revealed", nil, "events", rest[i]) end
end

sequence("setup", "rivals.principalities", function(g)
  -- Your Principality: 6 regions around 2 settlements joined by a road; every region
  -- stores 1 resource, the gold field none.
  for p = 1, 2 do
    g:create_card(p, P, CENTER, 12, "settlement")
    g:create_card(p, P, CENTER, 13, "road")
    g:create_card(p, P, CENTER, 14, "settlement")
    for _, rg in ipairs(START_REGIONS[p]) do
      local kind = rg[1] .. "_" .. rg[2]
      g:create_card(p, P, rg[3], rg[4], kind)
      if rg[1] ~= "gold_field" then g:set_store(p, P, rg[3], rg[4], 1) end
    end
  end
end)

sequence("setup", "rivals.stacks", function(g)
  -- Other Preparations 1-3: the centre stacks, the shuffled region stack, 4 draw stacks of 9.
  g:create(nil, "roads", "road", 7)
  g:create(nil, "settlements", "settlement", 5)
  g:create(nil, "cities", "city", 7)
  local regs = {}
  for rtype, dice in pairs(STACK_REGIONS) do
    for _, d in ipairs(dice) do regs[#regs + 1] = rtype .. "_" .. d end
  end
  for _, k in ipairs(g:shuffled(regs)) do g:create(nil, "regions", k, 1) end
  local basic = {}
  local kinds = {}
  for k, d in pairs(CARDS) do
    if (EXPANSION_TYPE[d.type] or d.type == "action") and (d.copies or 0) > 0 then kinds[#kinds + 1] = k end
  end
  table.sort(kinds)
  for _, k in ipairs(kinds) do
    for _ = 1, CARDS[k].copies do basic[#basic + 1] = k end
  end
  basic = g:shuffled(basic)
  local per = #basic // #STACKS
  for i, k in ipairs(basic) do
    local s = math.min((i - 1) // per + 1, #STACKS)
    g:create(nil, STACKS[s], k, 1)
  end
  -- Other Preparations 4-5: the event deck with Yule fourth from the bottom.
  for _, k in ipairs(event_list()) do g:create(nil, "revealed", k, 1) end
  g:create(nil, "revealed", "yule", 1)
  build_event_deck(g)
end)

local function draw_card(g, p, stack)
  local k = g:draw(nil, stack, p, "hand")
  if k then g:tell({ p }, "you draw " .. card_text(k) .. " from " .. stack) end
  return k
end

-- The Game Begins: the high roller starts (rolls again on a tie).
local function roll_for_start(g)
  local first
  repeat
    local a, b = g:roll(1)[1], g:roll(1)[1]
    g:log("start roll: red " .. a .. ", blue " .. b)
    if a ~= b then first = a > b and 1 or 2 end
  until first
  g:set("starting_player", first)
  g:log(name(g, first) .. " starts")
  return first
end

sequence("setup", "rivals.start", function(g)
  -- The Game Begins: the starting player draws 3 cards from one draw stack, the other
  -- player 3 from another.
  local first = roll_for_start(g)
  for i, p in ipairs(order_from(g, first)) do
    for _ = 1, 3 do draw_card(g, p, STACKS[i]) end
  end
  g:set_current(first)
  g:set_turn(1)
  g:set_phase("roll")
  g:run("turn_begin", first)
end)

-- Resolving the dice: a queue of steps ---------------------------------------------------------
-- Rolling the dice sets up a queue of steps in the game state: automatic ones (brigands,
-- production, an event) and choices a player must make (`choose`, `name`, `remove`,
-- `pick`). The queue runs until a choice is needed (phase "choose", the chooser to act) or
-- it is empty (phase "action").

local TASKS = {}
local EVENTS = {}
local DIE = {}

local function choice(seat, why, extra)
  local t = extra or {}
  t.t, t.seat, t.why = "choice", seat, why
  t.left = t.left or 1
  return t
end

-- How many more of resource r p's regions (and Gold Cache) can store.
local function room(g, p, r)
  local n = 0
  for _, s in ipairs(holders(g, p, r)) do n = n + MAX_STORE - s.store end
  return n
end

-- The resources p may take from the opponent by a `steal` choice: what the opponent has
-- and, with `storable` (the Moneylender), only what p can store.
local function stealable(g, p, task)
  local have, out = stock(g, other(p)), {}
  for _, r in ipairs(RESOURCES) do
    if have[r] > 0 and (not task.storable or room(g, p, r) > 0) then out[#out + 1] = r end
  end
  return out
end

-- Whether a choice a child variant adds can be made (by `why`); see choice_possible.
local POSSIBLE = {}

-- Whether a choice can be made at all; one that cannot is skipped.
local function choice_possible(g, task)
  if POSSIBLE[task.why] then return POSSIBLE[task.why](g, task) end
  if task.why == "steal" and task.storable then return #stealable(g, task.seat, task) > 0 end
  if task.why == "steal" then return stock_total(g, other(task.seat)) > 0 end
  if task.why == "buy" then return stock(g, task.seat).gold > 0 end
  if task.why == "fraternal" then return g:count(other(task.seat), "hand") > 0 end
  return true
end

-- The queue is read and changed an entry at a time (g:get with a field, g:remove,
-- g:insert): a task may change it, and copying it whole to Lua and back at each step was
-- most of the cost of resolving a roll.
local function advance(g)
  for _ = 1, 1000 do
    local task = g:get("queue", 1)
    if not task then
      g:set("queue", nil)
      g:set_phase("action")
      return
    end
    if task.t == "choice" then
      if choice_possible(g, task) then
        g:set_phase("choose")
        return
      end
      g:remove("queue", 1)
    else
      g:remove("queue", 1)
      local more = TASKS[task.t](g, task)
      if more then
        for i = #more, 1, -1 do g:insert("queue", 1, more[i]) end
      end
    end
  end
  error("the queue of dice results did not settle")
end

-- (Only the head is read: the rules ask for it while listing actions, and the whole
-- queue is a table per step.)
local function head(g) return g:get("queue", 1) end

-- One unit of the head choice is done: count it down and go on.
local function choice_done(g, changed)
  local task = changed or g:get("queue", 1)
  task.left = task.left - 1
  g:remove("queue", 1)
  if task.left > 0 then g:insert("queue", 1, task) end
  advance(g)
end

local function start_resolution(g, production, face)
  local event = EVENT_FACES[face]
  g:set("dice", { production = production, event = event })
  g:log("%s rolls %s; event die: %s", name(g, g:current()), production, FACE_TEXT[event])
  -- Event Die: a Brigand Attack is resolved before production, every other symbol after.
  local q
  if event == "brigand" then
    q = { { t = "brigand" }, { t = "produce", n = production }, { t = "marketplace", n = production } }
  else
    q = { { t = "produce", n = production }, { t = "marketplace", n = production }, { t = "event_die", face = event } }
  end
  g:set("queue", q)
  g:emit("rolled", { seat = g:current(), production = production, event = event })
  advance(g)
end

-- Brigand Attack: more than 7 resources loses all gold and wool; the regions left and right
-- of a Storehouse are not counted, but lose their gold and wool too if the rest is over 7.
TASKS.brigand = function(g)
  for _, p in ipairs(order_from(g, g:current())) do
    local safe = {}
    for _, s in ipairs(expansions(g, p)) do
      if s.def.storehouse or s.card == "storehouse" then
        for _, rc in ipairs(site_regions(s.row, s.col)) do safe[rc[1] * 100 + rc[2]] = true end
      end
    end
    local counted = 0
    for _, s in ipairs(regions(g, p)) do
      if not safe[s.row * 100 + s.col] then counted = counted + s.store end
    end
    counted = g:filter("brigand_count", counted, p)
    if counted > 7 then
      local lost = { gold = 0, wool = 0 }
      for _, s in ipairs(regions(g, p)) do
        local r = s.def.resource
        if (r == "gold" or r == "wool") and s.store > 0 then
          lost[r] = lost[r] + s.store
          g:set_store(p, P, s.row, s.col, 0)
        end
      end
      g:log("brigands attack " .. name(g, p) .. " (" .. counted .. " resources): " .. name(g, p) .. " loses "
        .. cards_text(lost))
    else
      g:log("the brigands spare " .. name(g, p) .. " (" .. counted .. " resources counted)")
    end
  end
end

-- Production booster: +1 for each adjacent booster of the region's resource.
filter("production", "rivals.boosters", function(g, n, p, s)
  for _, rc in ipairs(region_sites(s.row, s.col)) do
    local d = CARDS[top(g, p, rc[1], rc[2]) or ""]
    if d and d.boosts == s.def.resource then n = n + 1 end
  end
  return n
end)

-- Rolling the Dice: each region whose number matches receives 1 (at most 3 stored).
TASKS.produce = function(g, task)
  for _, p in ipairs(order_from(g, g:current())) do
    local got = {}
    local lost = 0
    for _, s in ipairs(regions(g, p)) do
      if s.def.die == task.n then
        local n = g:filter("production", 1, p, s)
        local put = store_at(g, p, s.row, s.col, n)
        got[s.def.resource] = (got[s.def.resource] or 0) + put
        lost = lost + n - put
      end
    end
    if next(got) or lost > 0 then
      -- The usual case, some of one resource and nothing lost, is written by the engine.
      local r, n = only_kind(got)
      if lost == 0 and IS_RESOURCE[r] and n > 0 then
        if n == 1 then g:log("%s receives %s", name(g, p), r) else g:log("%s receives %d %s", name(g, p), n, r) end
      else
        g:log(name(g, p) .. " receives " .. cards_text(got) .. (lost > 0 and (" (" .. lost .. " lost: regions full)") or ""))
      end
    end
  end
end

-- Marketplace: when the opponent has more regions with the number rolled, take 1 resource
-- of a type those regions produce (even one the opponent could not store).
TASKS.marketplace = function(g, task)
  local out = {}
  for _, p in ipairs(order_from(g, g:current())) do
    if g:grid_count(p, P, "marketplace") > 0 then
      local mine, theirs, kinds = 0, 0, {}
      for _, s in ipairs(regions(g, p)) do
        if s.def.die == task.n then mine = mine + 1 end
      end
      for _, s in ipairs(regions(g, other(p))) do
        if s.def.die == task.n then
          theirs = theirs + 1
          if not contains(kinds, s.def.resource) then kinds[#kinds + 1] = s.def.resource end
        end
      end
      if theirs > mine then
        g:log(name(g, p) .. "'s Marketplace: choose one of " .. table.concat(kinds, ", "))
        out[#out + 1] = choice(p, "marketplace", { allowed = kinds })
      end
    end
  end
  return out
end

TASKS.event_die = function(g, task) return DIE[task.face](g) end

-- Trade: the holder of the trade advantage takes 1 resource of their choice from the opponent.
DIE.trade = function(g)
  local h = g:get("trade_token")
  if not h then
    g:log("trade: nobody has the trade advantage")
    return
  end
  return { choice(h, "steal") }
end

-- Celebration: the most skill points alone receive 1 resource; otherwise each player does.
DIE.celebration = function(g)
  local a, b = tally(g, 1).skill, tally(g, 2).skill
  if a ~= b then
    local p = a > b and 1 or 2
    g:log("celebration: " .. name(g, p) .. " has the most skill points")
    return { choice(p, "gain", { reason = "celebration" }) }
  end
  g:log("celebration: both players receive a resource")
  local out = {}
  for _, p in ipairs(order_from(g, g:current())) do out[#out + 1] = choice(p, "gain", { reason = "celebration" }) end
  return out
end

-- Plentiful Harvest: each player receives 1 resource of their choice; a Toll Bridge gives
-- 2 gold more (as far as the gold fields have room).
DIE.harvest = function(g)
  local out = {}
  for _, p in ipairs(order_from(g, g:current())) do
    for _ = 1, g:grid_count(p, P, "toll_bridge") do
      local got = gain(g, p, "gold", 2)
      g:log("toll bridge: " .. gain_text(g, p, "gold", 2, got))
    end
    out[#out + 1] = choice(p, "gain", { reason = "plentiful harvest" })
  end
  g:run("harvest", out)
  return out
end

DIE.brigand = function() end

DIE.event = function() return { { t = "event_card" } } end

-- Event card: draw the top card, resolve it, put it under the deck.
TASKS.event_card = function(g)
  local kind = g:draw(nil, "events", nil, "revealed")
  if not kind then return end
  g:log("event: " .. title(kind))
  g:emit("event_card", { card = kind })
  local more = (EVENTS[kind] and EVENTS[kind](g)) or {}
  if g:count(nil, "revealed", kind) > 0 then more[#more + 1] = { t = "event_done", card = kind } end
  return more
end

TASKS.event_done = function(g, task)
  if g:count(nil, "revealed", task.card) > 0 then g:move_under(nil, "revealed", nil, "events", task.card) end
end

-- Buildings (not units) of p: their labels.
local function building_labels(g, p)
  local out = {}
  for _, s in ipairs(expansions(g, p, "building")) do out[#out + 1] = s.label end
  return out
end

-- Feud: the holder of the strength advantage names 3 of the opponent's buildings (all of
-- them if 3 or fewer); the opponent removes one of those, under a draw stack.
EVENTS.feud = function(g)
  local h = g:get("hero")
  if not h then
    g:log("feud: nobody has the strength advantage, nothing happens")
    return
  end
  local o = other(h)
  local b = building_labels(g, o)
  if #b == 0 then
    g:log("feud: " .. name(g, o) .. " has no building, nothing happens")
    return
  end
  if #b <= 3 then
    g:log("feud: " .. name(g, o) .. " must remove one of " .. table.concat(b, ", "))
    return { choice(o, "feud_remove", { named = b }) }
  end
  return { choice(h, "feud_name", { left = 3, named = {} }) }
end

-- Fraternal Feuds: the holder of the strength advantage looks at the opponent's hand, puts
-- 2 of its cards under draw stacks; an opponent whose turn it is may not replenish at the
-- end of this turn (only at the end of their next one).
EVENTS.fraternal_feuds = function(g)
  local h = g:get("hero")
  if not h then
    g:log("fraternal feuds: nobody has the strength advantage, nothing happens")
    return
  end
  local o = other(h)
  local n = g:count(o, "hand")
  if n == 0 then
    g:log("fraternal feuds: " .. name(g, o) .. " has no cards")
    return
  end
  local list = {}
  for k, c in pairs(g:cards(o, "hand")) do list[#list + 1] = c .. " " .. title(k) end
  g:tell({ h }, name(g, o) .. "'s hand: " .. table.concat(list, ", "))
  if o == g:current() then g:pset(o, "no_replenish", true) end
  return { choice(h, "fraternal", { left = math.min(2, n) }) }
end

-- Invention: 1 resource of choice per building with a progress point, at most 2.
EVENTS.invention = function(g)
  local out = {}
  for _, p in ipairs(order_from(g, g:current())) do
    local n = 0
    for _, s in ipairs(expansions(g, p, "building")) do
      if (s.def.progress or 0) > 0 then n = n + 1 end
    end
    n = math.min(n, 2)
    if n > 0 then out[#out + 1] = choice(p, "gain", { left = n, reason = "invention" }) end
  end
  if #out == 0 then g:log("invention: nobody has a building with a progress point") end
  return out
end

-- Trade Ships Race: the most trade ships takes 1 resource of choice; on a tie every player
-- with at least one does; with none, nobody.
EVENTS.trade_ships_race = function(g)
  local n = { #expansions(g, 1, "ship"), #expansions(g, 2, "ship") }
  if n[1] == 0 and n[2] == 0 then
    g:log("trade ships race: nobody has a trade ship")
    return
  end
  local out = {}
  for _, p in ipairs(order_from(g, g:current())) do
    if n[p] > 0 and n[p] >= n[other(p)] then out[#out + 1] = choice(p, "gain", { reason = "trade ships race" }) end
  end
  return out
end

-- Traveling Merchant: each player may buy up to 2 resources of choice for 1 gold each.
EVENTS.traveling_merchant = function(g)
  local out = {}
  for _, p in ipairs(order_from(g, g:current())) do out[#out + 1] = choice(p, "buy", { left = 2, optional = true }) end
  return out
end

-- Year of Plenty: every region receives 1 per adjacent Storehouse and per adjacent Abbey.
EVENTS.year_of_plenty = function(g)
  for _, p in ipairs(order_from(g, g:current())) do
    local got = {}
    for _, s in ipairs(regions(g, p)) do
      local n = 0
      for _, rc in ipairs(region_sites(s.row, s.col)) do
        local k = top(g, p, rc[1], rc[2])
        if k == "storehouse" or k == "abbey" then n = n + 1 end
      end
      if n > 0 then
        local put = store_at(g, p, s.row, s.col, n)
        got[s.def.resource] = (got[s.def.resource] or 0) + put
      end
    end
    g:log("year of plenty: " .. name(g, p) .. " receives " .. cards_text(got))
  end
end

-- Yule: prepare a new event deck, then draw and resolve a new event card.
EVENTS.yule = function(g)
  build_event_deck(g)
  g:log("yule: the event deck is prepared anew")
  return { { t = "event_card" } }
end

-- Export for child variants (the Theme Sets).
rivals = {
  cards = CARDS, card = card, expansion = expansion, events = EVENTS, tasks = TASKS, die = DIE,
  tally = tally, stock = stock, pay = pay, gain = gain, cost = cost, sites = sites, choice = choice,
  regions = regions, expansions = expansions, towns = towns, hand_limit = hand_limit, card_text = card_text,
}

-- Rolling the dice -----------------------------------------------------------------------------

local function in_hand(g, p, kind) return g:count(p, "hand", kind) > 0 end

local function requirement(g, p, kind)
  local d = CARDS[kind]
  if d and d.requires then return d.requires(g, p) end
  return true
end

local function discard_card(g, p, kind) g:move(p, "hand", nil, "discard", kind) end

local function my_turn(g, p) return p == g:current() end

action {
  name = "roll",
  phases = { "roll" },
  syntax = "roll",
  help = "roll the production die and the event die",
  when = my_turn,
  apply = function(g, p)
    local production = g:roll(1)[1]
    local face = g:roll(1)[1]
    start_resolution(g, production, face)
  end,
}

-- Brigitta the Wise Woman: before rolling, choose the production die; roll the event die.
action {
  name = "play_brigitta",
  phases = { "roll" },
  syntax = "play brigitta <int>",
  help = "play Brigitta the Wise Woman: choose the production die (1-6), then roll the event die",
  when = function(g, p) return my_turn(g, p) and in_hand(g, p, "brigitta") end,
  options = function() return { 1, 2, 3, 4, 5, 6 } end,
  legal = function(g, p, n)
    if n < 1 or n > 6 then return deny("the production die shows 1 to 6") end
    return true
  end,
  apply = function(g, p, n)
    discard_card(g, p, "brigitta")
    g:log(name(g, p) .. " plays Brigitta the Wise Woman and sets the production die to " .. n)
    start_resolution(g, n, g:roll(1)[1])
  end,
}

-- Choices while the dice are resolved ------------------------------------------------------

-- The head choice if it is p's (and of one of the kinds `why`), else nil.
local function choosing(g, p, why)
  local task = head(g)
  if task and task.seat == p and (why == nil or why[task.why]) then return task end
  return nil
end

local CHOOSE = { gain = true, marketplace = true, steal = true, buy = true }

action {
  name = "choose",
  phases = { "choose" },
  syntax = "choose <resource>",
  help = "choose a resource (celebration, plentiful harvest, trade, marketplace, events)",
  when = function(g, p) return choosing(g, p, CHOOSE) ~= nil end,
  options = function(g, p)
    local task = head(g)
    if task.why == "marketplace" then return task.allowed end
    if task.why == "steal" then return stealable(g, p, task) end
    if task.why == "buy" then
      if stock(g, p).gold == 0 then return {} end
      local out = {}
      for _, r in ipairs(RESOURCES) do if r ~= "gold" then out[#out + 1] = r end end
      return out
    end
    return RESOURCES
  end,
  legal = function(g, p, r)
    local task = head(g)
    if task.why == "marketplace" and not contains(task.allowed, r) then
      return deny("the Marketplace gives one of " .. table.concat(task.allowed, ", "))
    end
    if task.why == "steal" and stock(g, other(p))[r] == 0 then
      return deny(name(g, other(p)) .. " has no " .. r)
    end
    if task.why == "steal" and task.storable and room(g, p, r) == 0 then
      return deny("you can take only a resource you can store")
    end
    if task.why == "buy" then
      if r == "gold" then return deny("the traveling merchant sells for gold, not gold") end
      if stock(g, p).gold == 0 then return deny("you have no gold to pay the traveling merchant") end
    end
    return true
  end,
  apply = function(g, p, r)
    local task = head(g)
    if task.why == "steal" then
      pay(g, other(p), { [r] = 1 })
      local got = gain(g, p, r, 1)
      g:log("trade: " .. name(g, p) .. " takes " .. r .. " from " .. name(g, other(p))
        .. (got == 0 and " (lost: no room)" or ""))
    elseif task.why == "buy" then
      pay(g, p, { gold = 1 })
      g:log("traveling merchant: " .. gain_text(g, p, r, 1, gain(g, p, r, 1)) .. " for 1 gold")
    else
      g:log((task.reason or task.why) .. ": " .. gain_text(g, p, r, 1, gain(g, p, r, 1)))
    end
    choice_done(g)
  end,
}

action {
  name = "skip",
  phases = { "choose" },
  syntax = "skip",
  help = "pass on a choice you may decline (buy nothing more from the traveling merchant, take no card with the Traitor, ...)",
  when = function(g, p)
    local task = choosing(g, p)
    return task and task.optional == true
  end,
  apply = function(g, p)
    g:remove("queue", 1)
    advance(g)
  end,
}

-- Feud, step 1: the strength advantage names the opponent's buildings.
action {
  name = "name",
  phases = { "choose" },
  syntax = "name <slot>",
  help = "feud: name one of your opponent's buildings (3 in all)",
  when = function(g, p) return choosing(g, p, { feud_name = true }) ~= nil end,
  options = function(g, p)
    local task, out = head(g), {}
    for _, l in ipairs(building_labels(g, other(p))) do
      if not contains(task.named, l) then out[#out + 1] = l end
    end
    return out
  end,
  legal = function(g, p, lbl)
    local task = head(g)
    if not contains(building_labels(g, other(p)), lbl) then
      return deny("name a building (not a unit) of your opponent's principality")
    end
    if contains(task.named, lbl) then return deny("you named " .. lbl .. " already") end
    return true
  end,
  apply = function(g, p, lbl)
    local q = g:get("queue")
    local task = q[1]
    task.named[#task.named + 1] = lbl
    task.left = task.left - 1
    if task.left <= 0 then
      q[1] = choice(other(p), "feud_remove", { named = task.named })
      g:log("feud: " .. name(g, p) .. " names " .. table.concat(task.named, ", "))
    else
      q[1] = task
    end
    g:set("queue", q)
    advance(g)
  end,
}

local function stack_index(n)
  if n >= 1 and n <= #STACKS then return STACKS[n] end
end

local function stack_numbers()
  local out = {}
  for i = 1, #STACKS do out[i] = i end
  return out
end

-- The draw stacks card `kind` may go under: all of them, unless a filter `under_stacks`
-- narrows them (Theme Games, Placing Cards Under the Right Stack: the same back).
local function stacks_for(g, kind)
  return g:filter("under_stacks", stack_numbers(), kind)
end

local function may_go_under(g, kind, n)
  if not stack_index(n) then return deny("the draw stacks are 1 to " .. #STACKS) end
  if not contains(stacks_for(g, kind), n) then
    return deny("a " .. title(kind) .. " goes under a stack with the same back: "
      .. table.concat(stacks_for(g, kind), ", "))
  end
  return true
end

-- Where a card removed from a principality goes instead of `to` (a filter: the Theme
-- Games return a face-up expansion card to its stack).
local function removed_to(g, kind, to)
  return g:filter("removed_to", to, kind)
end

-- The choices answered by `remove <slot> under <int>`: one of the cards `task.named`
-- goes under a draw stack (a theme set adds its own, e.g. the Archer's).
local REMOVE_CHOICES = { feud_remove = true }

-- Feud, step 2: the opponent removes one of the named buildings, under a draw stack.
action {
  name = "remove",
  phases = { "choose" },
  syntax = "remove <slot> under <int>",
  help = "remove one of the named cards (feud, and the Theme Sets' attacks) and put it under a draw stack",
  when = function(g, p) return choosing(g, p, REMOVE_CHOICES) ~= nil end,
  options = function(g, p)
    local out = {}
    for _, l in ipairs(head(g).named) do
      local r, c = own(g, p, l)
      for _, i in ipairs(stacks_for(g, top(g, p, r, c))) do out[#out + 1] = { l, i } end
    end
    return out
  end,
  legal = function(g, p, lbl, n)
    if not contains(head(g).named, lbl) then return deny("remove one of the named buildings: " .. table.concat(head(g).named, ", ")) end
    local r, c = own(g, p, lbl)
    return may_go_under(g, top(g, p, r, c), n)
  end,
  apply = function(g, p, lbl, n)
    local r, c = own(g, p, lbl)
    local task = head(g)
    local kind = g:take_card(p, P, r, c, nil, removed_to(g, top(g, p, r, c), stack_index(n)), true)
    g:log((task.reason or "feud") .. ": " .. name(g, p) .. " removes " .. title(kind) .. " from " .. lbl
      .. " (under stack " .. n .. ")")
    -- A card lost to an event or the opponent's action card (the Theme Sets' Irmgard).
    g:run("forced_removal", p, kind, task)
    choice_done(g)
  end,
}

-- Fraternal Feuds: the strength advantage picks cards of the opponent's hand.
action {
  name = "pick",
  phases = { "choose" },
  syntax = "pick <word> under <int>",
  help = "fraternal feuds: put a card of your opponent's hand under a draw stack",
  when = function(g, p) return choosing(g, p, { fraternal = true }) ~= nil end,
  options = function(g, p)
    local out = {}
    for k in pairs(g:cards(other(p), "hand")) do
      for _, i in ipairs(stacks_for(g, k)) do out[#out + 1] = { k, i } end
    end
    return out
  end,
  legal = function(g, p, kind, n)
    kind = kind:lower()
    if not CARDS[kind] then return deny("'" .. kind .. "' is not a card of this game (see `legal`)") end
    if g:count(other(p), "hand", kind) == 0 then return deny(name(g, other(p)) .. " holds no " .. kind) end
    return may_go_under(g, kind, n)
  end,
  apply = function(g, p, kind, n)
    kind = kind:lower()
    g:move_under(other(p), "hand", nil, stack_index(n), kind)
    g:log("fraternal feuds: " .. name(g, p) .. " puts a card of " .. name(g, other(p)) .. "'s hand under stack " .. n)
    g:tell({ p, other(p) }, "(the card was " .. title(kind) .. ")")
    choice_done(g)
  end,
}

-- Building -------------------------------------------------------------------------------------

local function labels_of(g, p, positions)
  local out = {}
  for _, rc in ipairs(positions) do out[#out + 1] = label(g, p, rc[1], rc[2]) end
  return out
end

local function cost_text(c)
  local parts = {}
  for _, r in ipairs(RESOURCES) do
    if (c[r] or 0) > 0 then parts[#parts + 1] = c[r] .. " " .. r end
  end
  return table.concat(parts, ", ")
end

local function in_action(g, p) return my_turn(g, p) end

-- What `help` and `legal` say the centre cards cost the seat now, after every cost filter.
local PRICED = { build_road = "road", build_settlement = "settlement", build_city = "city" }
filter("action_note", "rivals.costs", function(g, text, p, action)
  if not PRICED[action] then return text end
  return "costs " .. cost_text(cost(g, PRICED[action], p))
end)

action {
  name = "build_road",
  phases = { "action" },
  syntax = "build road <slot>",
  help = "build a road at an open end of your centre row",
  when = in_action,
  options = function(g, p)
    if g:count(nil, "roads") == 0 or not can_pay(g, p, cost(g, "road", p)) then return {} end
    local out = {}
    for _, c in ipairs(road_sites(g, p)) do out[#out + 1] = label(g, p, CENTER, c) end
    return out
  end,
  legal = function(g, p, lbl)
    local r, c = own(g, p, lbl)
    if not r then return deny(lbl .. " is not in your principality") end
    if r ~= CENTER or not contains(road_sites(g, p), c) then
      return deny("a road goes at an open end of your centre row, next to a settlement or city")
    end
    if g:count(nil, "roads") == 0 then return deny("no road card is left") end
    if not can_pay(g, p, cost(g, "road", p)) then return deny("a road costs " .. cost_text(cost(g, "road", p))) end
    return true
  end,
  apply = function(g, p, lbl)
    local r, c = own(g, p, lbl)
    pay(g, p, cost(g, "road", p))
    g:place_card(nil, "roads", p, P, r, c, "road")
    g:log(name(g, p) .. " builds a road on " .. lbl)
    g:emit("built", { seat = p, card = "road", slot = lbl })
  end,
}

local function settlement_legal(g, p, lbl)
  local r, c = own(g, p, lbl)
  if not r then return deny(lbl .. " is not in your principality") end
  if r ~= CENTER or not contains(settlement_sites(g, p), c) then
    return deny("a settlement goes at the open end of a road")
  end
  if g:count(nil, "settlements") == 0 then return deny("no settlement card is left") end
  if not can_pay(g, p, cost(g, "settlement", p)) then
    return deny("a settlement costs " .. cost_text(cost(g, "settlement", p)))
  end
  return true
end

local function settlement_options(g, p)
  if g:count(nil, "settlements") == 0 or not can_pay(g, p, cost(g, "settlement", p)) then return {} end
  local out = {}
  for _, c in ipairs(settlement_sites(g, p)) do out[#out + 1] = label(g, p, CENTER, c) end
  return out
end

-- The unoccupied corners of the settlement at column c.
local function open_corners(g, p, c)
  local out = {}
  for _, rc in ipairs({ { CENTER - 1, c - 1 }, { CENTER - 1, c + 1 }, { CENTER + 1, c - 1 }, { CENTER + 1, c + 1 } }) do
    if in_grid(rc[1], rc[2]) and not top(g, p, rc[1], rc[2]) then out[#out + 1] = rc end
  end
  return out
end

local function place_settlement(g, p, lbl)
  local r, c = own(g, p, lbl)
  pay(g, p, cost(g, "settlement", p))
  g:place_card(nil, "settlements", p, P, r, c, "settlement")
  g:log(name(g, p) .. " builds a settlement on " .. lbl)
  return c
end

action {
  name = "build_settlement",
  phases = { "action" },
  syntax = "build settlement <slot>",
  help = "build a settlement at the open end of a road; it takes 2 regions",
  when = in_action,
  options = settlement_options,
  legal = settlement_legal,
  apply = function(g, p, lbl)
    local c = place_settlement(g, p, lbl)
    -- Building a Settlement: the 2 top regions of the stack go on the unoccupied corners,
    -- with nothing stored.
    for _, rc in ipairs(open_corners(g, p, c)) do
      local stack = g:cards(nil, "regions")
      local kind = stack[#stack]
      if not kind then break end
      g:place_card(nil, "regions", p, P, rc[1], rc[2], kind)
      g:log(name(g, p) .. " takes the region " .. title(kind) .. " (" .. label(g, p, rc[1], rc[2]) .. ")")
    end
    g:emit("built", { seat = p, card = "settlement", slot = lbl })
  end,
}

-- Scout: while building a settlement, choose its 2 regions from the region stack.
action {
  name = "play_scout",
  phases = { "action" },
  syntax = "play scout <slot>",
  help = "play the Scout: build a settlement and choose its 2 regions from the region stack",
  when = function(g, p) return in_action(g, p) and in_hand(g, p, "scout") end,
  options = settlement_options,
  legal = settlement_legal,
  apply = function(g, p, lbl)
    discard_card(g, p, "scout")
    local c = place_settlement(g, p, lbl)
    g:log(name(g, p) .. " plays the Scout")
    g:emit("built", { seat = p, card = "settlement", slot = lbl })
    if #open_corners(g, p, c) == 0 or g:count(nil, "regions") == 0 then return end
    g:set("scout", { col = c })
    g:set_phase("scout")
    g:tell({ p }, "the region stack: " .. table.concat(g:cards(nil, "regions"), ", "))
  end,
}

local function finish_scout(g)
  g:set("scout", nil)
  g:shuffle(nil, "regions")
  g:set_phase("action")
end

action {
  name = "region",
  phases = { "scout" },
  syntax = "region <word> <slot>",
  help = "scout: take a region of your choice from the region stack for a corner of the new settlement",
  when = in_action,
  options = function(g, p)
    local out, seen = {}, {}
    local corners = labels_of(g, p, open_corners(g, p, g:get("scout").col))
    for _, k in ipairs(g:cards(nil, "regions")) do
      if not seen[k] then
        seen[k] = true
        for _, l in ipairs(corners) do out[#out + 1] = { k, l } end
      end
    end
    table.sort(out, function(a, b) if a[1] ~= b[1] then return a[1] < b[1] end return a[2] < b[2] end)
    return out
  end,
  legal = function(g, p, kind, lbl)
    kind = kind:lower()
    if not CARDS[kind] then return deny("'" .. kind .. "' is not a card of this game (see `legal`)") end
    if g:count(nil, "regions", kind) == 0 then return deny("the region stack holds no " .. kind) end
    local r, c = own(g, p, lbl)
    local ok = false
    for _, rc in ipairs(open_corners(g, p, g:get("scout").col)) do
      if rc[1] == r and rc[2] == c then ok = true end
    end
    if not ok then return deny("put the region on an unoccupied corner of the new settlement") end
    return true
  end,
  apply = function(g, p, kind, lbl)
    kind = kind:lower()
    local r, c = own(g, p, lbl)
    g:place_card(nil, "regions", p, P, r, c, kind)
    g:log(name(g, p) .. " chooses the region " .. title(kind) .. " (" .. lbl .. ")")
    if #open_corners(g, p, g:get("scout").col) == 0 or g:count(nil, "regions") == 0 then finish_scout(g) end
  end,
}

action {
  name = "build_city",
  phases = { "action" },
  syntax = "build city <slot>",
  help = "upgrade one of your settlements to a city: 2 points, 2 more building sites",
  when = in_action,
  options = function(g, p)
    if g:count(nil, "cities") == 0 or not can_pay(g, p, cost(g, "city", p)) then return {} end
    local out = {}
    for _, t in ipairs(towns(g, p)) do
      if not t.city then out[#out + 1] = label(g, p, CENTER, t.col) end
    end
    return out
  end,
  legal = function(g, p, lbl)
    local r, c = own(g, p, lbl)
    if not r or top(g, p, r, c) ~= "settlement" then return deny("a city is built on one of your settlements") end
    if g:count(nil, "cities") == 0 then return deny("no city card is left") end
    if not can_pay(g, p, cost(g, "city", p)) then return deny("a city costs " .. cost_text(cost(g, "city", p))) end
    return true
  end,
  apply = function(g, p, lbl)
    local r, c = own(g, p, lbl)
    pay(g, p, cost(g, "city", p))
    -- Building a City: the settlement stays underneath.
    g:place_card(nil, "cities", p, P, r, c, "city")
    g:log(name(g, p) .. " builds a city on " .. lbl)
    g:emit("built", { seat = p, card = "city", slot = lbl })
  end,
}

-- Where p builds card `kind` from: the hand, or a game zone the filter `build_from` names
-- (the Theme Games' face-up expansion stack). Returns owner, zone, or nil.
local function build_source(g, p, kind)
  if in_hand(g, p, kind) then return p, "hand" end
  for _, z in ipairs(g:filter("build_from", {}, p)) do
    if g:count(nil, z, kind) > 0 then return nil, z end
  end
  return nil, nil
end

local function buildable_kinds(g, p)
  local out = {}
  for kind in pairs(g:cards(p, "hand")) do out[kind] = true end
  for _, z in ipairs(g:filter("build_from", {}, p)) do
    for kind in pairs(g:cards(nil, z)) do out[kind] = true end
  end
  return out
end

-- Whether p may build `kind` now; with `say`, false comes with the reason (worded only
-- then: listing asks for every card in hand at every draw).
local function may_build_card(g, p, kind, say)
  local d = CARDS[kind]
  if not d or not d.placement then return false, say and ("a " .. title(kind) .. " is not an expansion card") end
  if not select(2, build_source(g, p, kind)) then return false, say and ("you hold no " .. title(kind)) end
  -- "1x": at most one in your principality.
  if d.one_x and g:grid_count(p, P, kind) > 0 then return false, say and ("you may have only one " .. title(kind)) end
  local ok, why = requirement(g, p, kind)
  if not ok then return false, say and (why or ("the requirement of " .. title(kind) .. " is not met")) end
  local price = cost(g, kind, p)
  if not can_pay(g, p, price) then
    return false, say and ("a " .. title(kind) .. " costs " .. cost_text(price))
  end
  return true
end

action {
  name = "build",
  phases = { "action" },
  syntax = "build <word> <slot>",
  help = "place an expansion card from your hand on an empty building site, paying its cost",
  when = in_action,
  options = function(g, p)
    local out = {}
    local ps = placed(g, p)
    for kind in pairs(buildable_kinds(g, p)) do
      if may_build_card(g, p, kind) then
        for _, l in ipairs(labels_of(g, p, sites(g, p, kind, ps))) do out[#out + 1] = { kind, l } end
      end
    end
    return out
  end,
  legal = function(g, p, kind, lbl)
    kind = kind:lower()
    if not CARDS[kind] then return deny("'" .. kind .. "' is not a card of this game (see `legal`)") end
    local ok, why = may_build_card(g, p, kind, true)
    if not ok then return deny(why) end
    local r, c = own(g, p, lbl)
    local good = false
    for _, rc in ipairs(r and sites(g, p, kind) or {}) do
      if rc[1] == r and rc[2] == c then good = true end
    end
    if not good then
      return deny(lbl .. " is not an empty building site for a " .. title(kind) .. " (see `legal`)")
    end
    return true
  end,
  apply = function(g, p, kind, lbl)
    kind = kind:lower()
    local r, c = own(g, p, lbl)
    pay(g, p, cost(g, kind, p))
    local owner, zone = build_source(g, p, kind)
    g:place_card(owner, zone, p, P, r, c, kind)
    g:log(name(g, p) .. " builds " .. title(kind) .. " on " .. lbl)
    local d = CARDS[kind]
    if d.on_build then d.on_build(g, p, r, c) end
    g:emit("built", { seat = p, card = kind, slot = lbl })
  end,
}

-- Action cards --------------------------------------------------------------------------------

local function may_play(g, p, kind)
  if not in_action(g, p) or not in_hand(g, p, kind) then return false end
  return requirement(g, p, kind)
end

-- Goldsmith: pay 3 gold (from any gold fields), take any 2 resources.
action {
  name = "play_goldsmith",
  phases = { "action" },
  syntax = "play goldsmith <cards>",
  help = "play the Goldsmith: pay 3 gold, take any 2 resources (e.g. `play goldsmith ore grain`)",
  when = function(g, p) return may_play(g, p, "goldsmith") end,
  options = function(g, p)
    if stock(g, p).gold < 3 then return {} end
    return combos(2)
  end,
  legal = function(g, p, get)
    if not resources_only(get) or total(get) ~= 2 then return deny("the Goldsmith gives exactly 2 resources") end
    if stock(g, p).gold < 3 then return deny("the Goldsmith costs 3 gold") end
    return true
  end,
  apply = function(g, p, get)
    discard_card(g, p, "goldsmith")
    pay(g, p, { gold = 3 })
    g:log(name(g, p) .. " plays the Goldsmith: 3 gold for " .. cards_text(get))
    for _, r in ipairs(RESOURCES) do
      if get[r] then g:log(gain_text(g, p, r, get[r], gain(g, p, r, get[r]))) end
    end
  end,
}

-- Merchant Caravan: give exactly 2 resources (alike or not), take any 2.
action {
  name = "play_merchant_caravan",
  phases = { "action" },
  syntax = "play merchant_caravan <cards> for <cards>",
  help = "play the Merchant Caravan: exchange any 2 of your resources for any 2",
  when = function(g, p) return may_play(g, p, "merchant_caravan") end,
  options = function(g, p)
    local out = {}
    local gets = combos(2)
    for _, give in ipairs(combos(2, stock(g, p))) do
      for _, get in ipairs(gets) do out[#out + 1] = { give, get } end
    end
    return out
  end,
  legal = function(g, p, give, get)
    if not resources_only(give) or not resources_only(get) or total(give) ~= 2 or total(get) ~= 2 then
      return deny("the Merchant Caravan exchanges exactly 2 resources for 2")
    end
    if not can_pay(g, p, give) then return deny("you do not have " .. cards_text(give)) end
    return true
  end,
  apply = function(g, p, give, get)
    discard_card(g, p, "merchant_caravan")
    pay(g, p, give)
    g:log(name(g, p) .. " plays the Merchant Caravan: " .. cards_text(give) .. " for " .. cards_text(get))
    for _, r in ipairs(RESOURCES) do
      if get[r] then g:log(gain_text(g, p, r, get[r], gain(g, p, r, get[r]))) end
    end
  end,
}

-- Relocation: swap 2 of your regions (with what they store) or 2 of your expansion cards.
local function relocation_pairs(g, p)
  local out = {}
  local regs = regions(g, p)
  for i = 1, #regs do
    for j = i + 1, #regs do out[#out + 1] = { regs[i].label, regs[j].label } end
  end
  local ex = expansions(g, p)
  for i = 1, #ex do
    for j = i + 1, #ex do
      local a, b = ex[i], ex[j]
      if fits(g, p, a.card, b.row, b.col) and fits(g, p, b.card, a.row, a.col) then
        out[#out + 1] = { a.label, b.label }
      end
    end
  end
  return out
end

action {
  name = "play_relocation",
  phases = { "action" },
  syntax = "play relocation <slot> <slot>",
  help = "play Relocation: swap 2 of your regions or 2 of your expansion cards",
  when = function(g, p) return may_play(g, p, "relocation") end,
  options = relocation_pairs,
  legal = function(g, p, a, b)
    local ra, ca = own(g, p, a)
    local rb, cb = own(g, p, b)
    if not ra or not rb then return deny("both cards must be in your principality") end
    local da, db = CARDS[top(g, p, ra, ca) or ""], CARDS[top(g, p, rb, cb) or ""]
    if not da or not db or a == b then return deny("name two cards of your principality") end
    if da.type == "region" and db.type == "region" then return true end
    if EXPANSION_TYPE[da.type] and EXPANSION_TYPE[db.type] then
      if not (fits(g, p, da.name, rb, cb) and fits(g, p, db.name, ra, ca)) then
        return deny("each card must still stand on a site it may be placed on")
      end
      return true
    end
    return deny("Relocation swaps 2 regions or 2 expansion cards")
  end,
  apply = function(g, p, a, b)
    local ra, ca = own(g, p, a)
    local rb, cb = own(g, p, b)
    discard_card(g, p, "relocation")
    g:swap_slots(p, P, ra, ca, rb, cb)
    g:log(name(g, p) .. " plays Relocation: " .. a .. " and " .. b .. " swap places")
  end,
}

-- Trading -----------------------------------------------------------------------------------------

-- Regular Exchange Rate 3:1; Improved Exchange Rate 2:1 with a trade ship of that resource.
local function ratio(g, p, r)
  local best = 3
  for _, s in ipairs(ships(g, p)) do
    if s.def.ship == r then best = 2 end
  end
  return g:filter("trade_ratio", best, p, r)
end

action {
  name = "trade",
  phases = { "action" },
  syntax = "trade <cards> for <resource>",
  help = "trade 3 resources of one type (2 with its trade ship) for 1 other, e.g. `trade 3 ore for wool`",
  when = in_action,
  options = function(g, p)
    local out = {}
    local have = stock(g, p)
    for _, r in ipairs(RESOURCES) do
      local k = ratio(g, p, r)
      if have[r] >= k then
        for _, t in ipairs(RESOURCES) do
          if t ~= r then out[#out + 1] = { { [r] = k }, t } end
        end
      end
    end
    return out
  end,
  legal = function(g, p, give, get)
    local kinds, r = 0, nil
    for k in pairs(give) do kinds, r = kinds + 1, k end
    if kinds ~= 1 or not IS_RESOURCE[r] then return deny("give resources of one type, e.g. `trade 3 ore for wool`") end
    -- "You can always trade 3 for 1": a trade ship improves the rate, it does not
    -- take the regular one away.
    local k = ratio(g, p, r)
    local worst = math.max(3, k)
    if give[r] < k or give[r] > worst then
      return deny("you trade " .. r .. " at " .. (k == worst and (k .. ":1") or (k .. ":1 or " .. worst .. ":1"))
        .. " for 1 resource")
    end
    if get == r then return deny("take a different resource") end
    if not can_pay(g, p, give) then return deny("you do not have " .. cards_text(give)) end
    return true
  end,
  apply = function(g, p, give, get)
    pay(g, p, give)
    local got = gain(g, p, get, 1)
    local r, n = only_kind(give)
    if IS_RESOURCE[r] and n > 1 then
      g:log("%s trades %d %s for %s%s", name(g, p), n, r, get, got == 0 and " (lost: no room)" or "")
    else
      g:log(name(g, p) .. " trades " .. cards_text(give) .. " for " .. get .. (got == 0 and " (lost: no room)" or ""))
    end
    g:emit("traded", { seat = p, give = give, get = get })
  end,
}

-- Large Trade Ship: 2 resources from the region on its left or right for 1 of choice.
local function large_ship_regions(g, p)
  local out = {}
  for _, s in ipairs(expansions(g, p, "ship")) do
    if s.def.large_ship then
      for _, rc in ipairs(site_regions(s.row, s.col)) do
        local d = CARDS[top(g, p, rc[1], rc[2]) or ""]
        if d and d.type == "region" and g:store(p, P, rc[1], rc[2]) >= 2 then
          local l = label(g, p, rc[1], rc[2])
          if not contains(out, l) then out[#out + 1] = l end
        end
      end
    end
  end
  return out
end

action {
  name = "trade_from",
  phases = { "action" },
  syntax = "trade from <slot> for <resource>",
  help = "Large Trade Ship: 2 resources from the region left or right of it for 1 of your choice",
  when = in_action,
  options = function(g, p)
    local out = {}
    for _, l in ipairs(large_ship_regions(g, p)) do
      local r, c = own(g, p, l)
      local res = CARDS[top(g, p, r, c)].resource
      for _, t in ipairs(RESOURCES) do
        if t ~= res then out[#out + 1] = { l, t } end
      end
    end
    return out
  end,
  legal = function(g, p, lbl, get)
    if not contains(large_ship_regions(g, p), lbl) then
      return deny("name a region with 2 resources left or right of your Large Trade Ship")
    end
    local r, c = own(g, p, lbl)
    if CARDS[top(g, p, r, c)].resource == get then return deny("take a different resource") end
    return true
  end,
  apply = function(g, p, lbl, get)
    local r, c = own(g, p, lbl)
    local res = CARDS[top(g, p, r, c)].resource
    g:set_store(p, P, r, c, g:store(p, P, r, c) - 2)
    local got = gain(g, p, get, 1)
    g:log(name(g, p) .. " trades 2 " .. res .. " from " .. lbl .. " by the Large Trade Ship for " .. get
      .. (got == 0 and " (lost: no room)" or ""))
    g:emit("traded", { seat = p, give = { [res] = 2 }, get = get })
  end,
}

-- End of the turn: replenish, exchange -------------------------------------------------------

local function any_stack(g)
  for _, s in ipairs(STACKS) do
    if g:count(nil, s) > 0 then return true end
  end
  return false
end

-- Replenishing Your Hand, then Exchanging a Card: which step comes next.
local function settle_hand(g, p)
  local n, lim = g:count(p, "hand"), hand_limit(g, p)
  if n > lim or (n < lim and not g:pget(p, "no_replenish") and any_stack(g)) then
    g:set_phase("replenish")
  else
    g:set_phase("exchange")
  end
end

local function end_turn(g)
  local p = g:current()
  g:pset(p, "no_replenish", nil)
  g:set("searching", nil)
  g:run("turn_end", p)
  local o = other(p)
  g:set_current(o)
  g:set_turn(g:turn() + 1)
  g:set("dice", nil)
  g:set_phase("roll")
  g:run("turn_begin", o)
end

action {
  name = "end",
  phases = { "action" },
  syntax = "end",
  help = "end your action phase: replenish your hand, exchange a card, and pass the turn",
  when = in_action,
  apply = function(g, p)
    -- The Goal & End of the Game: 7 points at the end of your turn wins (nothing in the
    -- replenish and exchange steps changes points).
    local pts = points(g, p)
    if pts >= g:option("victory_points") then
      g:declare_winner(p)
      g:log(name(g, p) .. " wins with " .. pts .. " points!")
      g:emit("game_won", { seat = p })
      return
    end
    settle_hand(g, p)
  end,
}

local function stack_options(g)
  local out = {}
  for i, s in ipairs(STACKS) do
    if g:count(nil, s) > 0 then out[#out + 1] = i end
  end
  return out
end

action {
  name = "draw",
  phases = { "replenish", "exchange_take" },
  syntax = "draw <int>",
  help = "draw the top card of a draw stack (1-4)",
  when = function(g, p)
    if not my_turn(g, p) then return false end
    if g:phase() == "replenish" then
      return g:count(p, "hand") < hand_limit(g, p) and not g:pget(p, "no_replenish")
    end
    return true
  end,
  options = stack_options,
  legal = function(g, p, n)
    local s = stack_index(n)
    if not s then return deny("the draw stacks are 1 to " .. #STACKS) end
    if g:count(nil, s) == 0 then return deny("draw stack " .. n .. " is empty") end
    return true
  end,
  apply = function(g, p, n)
    draw_card(g, p, stack_index(n))
    g:log(name(g, p) .. " draws a card from stack " .. n)
    if g:phase() == "replenish" then settle_hand(g, p) else end_turn(g) end
  end,
}

-- A card of your hand under one of the draw stacks: what `discard` and `exchange` list
-- and check.
local function hand_card_under_stack(g, p)
  local out = {}
  for k in pairs(g:cards(p, "hand")) do
    for _, i in ipairs(stacks_for(g, k)) do out[#out + 1] = { k, i } end
  end
  return out
end

local function may_put_under_stack(g, p, kind, n)
  kind = kind:lower()
  if not CARDS[kind] then return deny("'" .. kind .. "' is not a card of this game (see `legal`)") end
  if not in_hand(g, p, kind) then return deny("you hold no " .. kind) end
  return may_go_under(g, kind, n)
end

action {
  name = "discard",
  phases = { "replenish" },
  syntax = "discard <word> under <int>",
  help = "over your hand limit: put a card under a draw stack",
  when = function(g, p) return my_turn(g, p) and g:count(p, "hand") > hand_limit(g, p) end,
  options = hand_card_under_stack,
  legal = may_put_under_stack,
  apply = function(g, p, kind, n)
    kind = kind:lower()
    g:move_under(p, "hand", nil, stack_index(n), kind)
    g:log(name(g, p) .. " puts a card under stack " .. n)
    settle_hand(g, p)
  end,
}

-- Exchanging a Card from Your Hand: one card under a stack, then the top card of any stack,
-- or (paying 2 resources, 1 with a Parish Hall) a card of your choice from a stack.
action {
  name = "exchange",
  phases = { "exchange" },
  syntax = "exchange <word> under <int>",
  help = "put a card of your hand under a draw stack, then draw or search for a new one",
  when = my_turn,
  options = hand_card_under_stack,
  legal = may_put_under_stack,
  apply = function(g, p, kind, n)
    kind = kind:lower()
    g:move_under(p, "hand", nil, stack_index(n), kind)
    g:log(name(g, p) .. " puts a card under stack " .. n .. " to exchange it")
    g:set_phase("exchange_take")
  end,
}

action {
  name = "keep",
  phases = { "exchange" },
  syntax = "keep",
  help = "exchange no card: pass the turn",
  when = my_turn,
  apply = function(g, p) end_turn(g) end,
}

local function search_cost(g, p)
  local n = g:grid_count(p, P, "parish_hall") > 0 and 1 or 2
  return g:filter("search_cost", n, p)
end

action {
  name = "search",
  phases = { "exchange_take" },
  syntax = "search <int> paying <cards>",
  help = "pay 2 resources (1 with a Parish Hall) to look through a draw stack and take a card of your choice",
  when = my_turn,
  options = function(g, p)
    local out = {}
    local pays = combos(search_cost(g, p), stock(g, p))
    for _, i in ipairs(stack_options(g)) do
      for _, c in ipairs(pays) do out[#out + 1] = { i, c } end
    end
    return out
  end,
  legal = function(g, p, n, paying)
    local s = stack_index(n)
    if not s then return deny("the draw stacks are 1 to " .. #STACKS) end
    if g:count(nil, s) == 0 then return deny("draw stack " .. n .. " is empty") end
    local k = search_cost(g, p)
    if not resources_only(paying) or total(paying) ~= k then return deny("searching a stack costs " .. k .. (k == 1 and " resource" or " resources")) end
    if not can_pay(g, p, paying) then return deny("you do not have " .. cards_text(paying)) end
    return true
  end,
  apply = function(g, p, n, paying)
    pay(g, p, paying)
    g:set("searching", n)
    g:set_phase("search")
    g:log(name(g, p) .. " pays " .. cards_text(paying) .. " to search stack " .. n)
    local list = {}
    for i, k in ipairs(g:cards(nil, stack_index(n))) do list[i] = title(k) end
    g:tell({ p }, "stack " .. n .. " (bottom to top): " .. table.concat(list, ", "))
  end,
}

action {
  name = "take",
  phases = { "search" },
  syntax = "take <word>",
  help = "take the card of your choice from the stack you searched (its order stays)",
  when = my_turn,
  options = function(g, p)
    local out, seen = {}, {}
    for _, k in ipairs(g:cards(nil, stack_index(g:get("searching")))) do
      if not seen[k] then seen[k] = true; out[#out + 1] = k end
    end
    table.sort(out)
    return out
  end,
  legal = function(g, p, kind)
    kind = kind:lower()
    if not CARDS[kind] then return deny("'" .. kind .. "' is not a card of this game (see `legal`)") end
    if g:count(nil, stack_index(g:get("searching")), kind) == 0 then
      return deny("stack " .. g:get("searching") .. " holds no " .. kind)
    end
    return true
  end,
  apply = function(g, p, kind)
    kind = kind:lower()
    g:move(nil, stack_index(g:get("searching")), p, "hand", kind)
    g:log(name(g, p) .. " takes a card from stack " .. g:get("searching"))
    g:tell({ p }, "you take " .. card_text(kind))
    end_turn(g)
  end,
}

-- More for child variants (the Theme Sets, rivals_theme.lua): the dice and the queue of
-- choices, the stacks, the turn, and the small helpers, so that a theme set calls these
-- instead of copying them.
for k, v in pairs({
  P = P, CENTER = CENTER, MAX_STORE = MAX_STORE, RESOURCES = RESOURCES, STACKS = STACKS,
  expansion_types = EXPANSION_TYPE, possible = POSSIBLE, remove_choices = REMOVE_CHOICES,
  roll_for_start = roll_for_start, start_resolution = start_resolution, advance = advance, head = head, choice_done = choice_done,
  choosing = choosing, build_event_deck = build_event_deck, draw_card = draw_card,
  stack_index = stack_index, stacks_for = stacks_for, may_go_under = may_go_under, removed_to = removed_to,
  points = points, placed = placed, holders = holders, room = room, own = own, top = top, label = label,
  labels_of = labels_of, site_regions = site_regions, region_sites = region_sites, can_pay = can_pay,
  in_hand = in_hand, discard_card = discard_card, may_play = may_play, my_turn = my_turn, end_turn = end_turn,
  combos = combos, resources_only = resources_only, total = total, copy = copy, contains = contains,
  cards_text = cards_text, gain_text = gain_text, cost_text = cost_text, title = title, name = name,
  other = other, order_from = order_from,
}) do
  rivals[k] = v
end

-- The text of a card for `help <card>` / `show card <card>`: its line, then the
-- clarification of the card index (`index`) when the card has one.
filter("card_text", "rivals.card_text", function(g, text, kind)
  local d = CARDS[kind]
  if not d then return text end
  local t = card_text(kind)
  if d.index then t = t .. "\n" .. d.index end
  return t
end)

-- Editing positions (option test_edits) --------------------------------------------------------
-- Moves that no rule makes, for tests and teaching: each takes the card from where it is
-- (draw stacks, discard pile, event deck, centre stacks, a hand), so every card stays
-- accounted for. They are templates, never listed, so bots never use them.

local function editing(g) return g:option("test_edits") end

-- The game zones a card is looked for in, besides the draw stacks (a child adds its own).
local EDIT_ZONES = { "discard", "events", "revealed", "regions", "roads", "settlements", "cities" }
rivals.edit_zones = EDIT_ZONES

local function find_card(g, kind)
  local zones = copy(STACKS)
  for _, z in ipairs(EDIT_ZONES) do zones[#zones + 1] = z end
  for _, z in ipairs(zones) do
    if g:count(nil, z, kind) > 0 then return nil, z end
  end
  for p = 1, 2 do
    if g:count(p, "hand", kind) > 0 then return p, "hand" end
  end
end

action {
  name = "edit_hand",
  syntax = "edit hand <player> <word>",
  debug = true,
  help = "(test_edits) move a card into a player's hand",
  when = editing,
  legal = function(g, p, who, kind)
    local _, z = find_card(g, kind)
    if not z then return deny("there is no free " .. kind .. " card") end
    return true
  end,
  apply = function(g, p, who, kind)
    local o, z = find_card(g, kind)
    g:move(o, z, who, "hand", kind)
  end,
}

action {
  name = "edit_drop",
  syntax = "edit drop <player> <word>",
  debug = true,
  help = "(test_edits) move a card of a player's hand to the discard pile",
  when = editing,
  apply = function(g, p, who, kind) g:move(who, "hand", nil, "discard", kind) end,
}

action {
  name = "edit_place",
  syntax = "edit place <slot> <word>",
  debug = true,
  help = "(test_edits) put a card on a position of a principality",
  when = editing,
  legal = function(g, p, lbl, kind)
    local _, z = find_card(g, kind)
    if not z then return deny("there is no free " .. kind .. " card") end
    return true
  end,
  apply = function(g, p, lbl, kind)
    local owner, _, r, c = g:slot_at(lbl)
    local o, z = find_card(g, kind)
    g:place_card(o, z, owner, P, r, c, kind)
  end,
}

action {
  name = "edit_clear",
  syntax = "edit clear <slot>",
  debug = true,
  help = "(test_edits) move the top card of a position to the discard pile",
  when = editing,
  apply = function(g, p, lbl)
    local owner, _, r, c = g:slot_at(lbl)
    g:take_card(owner, P, r, c, nil, "discard")
  end,
}

action {
  name = "edit_store",
  syntax = "edit store <slot> <int>",
  debug = true,
  help = "(test_edits) set what a position stores",
  when = editing,
  apply = function(g, p, lbl, n)
    local owner, _, r, c = g:slot_at(lbl)
    g:set_store(owner, P, r, c, n)
  end,
}

action {
  name = "edit_event",
  syntax = "edit event <word>",
  debug = true,
  help = "(test_edits) put an event card on top of the event deck",
  when = editing,
  apply = function(g, p, kind) g:move(nil, "events", nil, "events", kind) end,
}

action {
  name = "edit_top",
  syntax = "edit top <int> <word>",
  debug = true,
  help = "(test_edits) put a card on top of a draw stack",
  when = editing,
  apply = function(g, p, n, kind)
    local o, z = find_card(g, kind)
    g:move(o, z, nil, STACKS[n], kind)
  end,
}

-- Evaluation (bots) -------------------------------------------------------------------------

-- How good a position is for seat p, in victory points' units (docs/bots.md): points, then
-- what brings points: strength and commerce (the advantage tokens), skill and progress
-- points, resources stored, regions (each pays on its die face), cards in play and in hand.
-- A theme set wraps or replaces "rivals.evaluate".
filter("evaluate", "rivals.evaluate", function(g, v, p)
  local winner = g:winner()
  if winner then return v + (winner == p and 100 or 0) end
  local ps = placed(g, p)
  local t = tally(g, p)
  v = v + points(g, p) + 0.15 * (t.strength + t.commerce) + 0.2 * t.skill + 0.25 * t.progress
  local stored, lands, cards = 0, 0, #ps
  for _, s in ipairs(regions(g, p)) do
    lands = lands + 1
    stored = stored + s.store
  end
  return v + 0.06 * stored + 0.1 * lands + 0.05 * cards + 0.05 * g:count(p, "hand")
end)
