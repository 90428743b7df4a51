-- Rivals for Catan: the constants and every card of the Basic Set.
-- Rulebook: A Little Bit of Sorting; Card Index.
-- A part of ../rivals.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...

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

-- The same, kept (`g:cached` on "constants": it reads the card's definition alone), for
-- what is told at every card drawn.
local function read_card_text(_, kind) return card_text(kind) end
local function kept_card_text(g, kind) return g:cached(read_card_text, kind, "constants") end

-- For the parts after this one.
shared.P, shared.ROWS, shared.COLS, shared.CENTER = P, ROWS, COLS, CENTER
shared.MAX_STORE, shared.RESOURCES, shared.IS_RESOURCE = MAX_STORE, RESOURCES, IS_RESOURCE
shared.STACKS, shared.START_REGIONS, shared.STACK_REGIONS = STACKS, START_REGIONS, STACK_REGIONS
shared.CENTER_COST, shared.EVENT_FACES, shared.FACE_TEXT = CENTER_COST, EVENT_FACES, FACE_TEXT
shared.CARDS, shared.card, shared.expansion = CARDS, card, expansion
shared.EXPANSION_TYPE, shared.card_text, shared.kept_card_text = EXPANSION_TYPE, card_text, kept_card_text
