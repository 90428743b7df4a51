-- Rivals for Catan: the event cards, and the exports for the Theme Sets.
-- Rulebook: Card Index: Event Cards.
-- A part of ../rivals.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local CARDS, card, expansion = shared.CARDS, shared.card, shared.expansion
local card_text, other, name, title = shared.card_text, shared.other, shared.name, shared.title
local cards_text, order_from = shared.cards_text, shared.order_from
local regions, expansions = shared.regions, shared.expansions
local towns, sites, tally, hand_limit = shared.towns, shared.sites, shared.tally, shared.hand_limit
local stock, pay, store_at, gain = shared.stock, shared.pay, shared.store_at, shared.gain
local cost, build_event_deck, TASKS = shared.cost, shared.build_event_deck, shared.TASKS
local EVENTS, DIE, choice = shared.EVENTS, shared.DIE, shared.choice
local placed, is_region_site = shared.placed, shared.is_region_site

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

-- Invention: 1 resource of choice per building with a progress point, at most 2. "Each
-- player determines which resources to receive and among which regions to distribute them"
-- (`place`: a `store` choice follows each resource while more than one region could take it).
EVENTS.invention = function(g)
  local out = {}
  for _, p in ipairs(order_from(g, g:current())) do
    local n = 0
    for _, s in ipairs(expansions(g, p, "building")) do
      if (s.def.progress or 0) > 0 then n = n + 1 end
    end
    n = math.min(n, 2)
    if n > 0 then out[#out + 1] = choice(p, "gain", { left = n, reason = "invention", place = true }) end
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
    -- The Storehouses and Abbeys found once, then matched to each region's building sites.
    local givers = {}
    for _, e in ipairs(placed(g, p)) do
      if e.card == "storehouse" or e.card == "abbey" then givers[#givers + 1] = e end
    end
    for _, s in ipairs(regions(g, p)) do
      local n = 0
      for _, e in ipairs(givers) do
        if is_region_site(s.row, s.col, e.row, e.col) then n = n + 1 end
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

-- For the parts after this one.
shared.building_labels = building_labels
