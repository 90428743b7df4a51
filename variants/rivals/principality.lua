-- Rivals for Catan: small helpers, the geometry of a principality, points and resources.
-- Rulebook: Your Principality; Regions; Building Costs.
-- A part of ../rivals.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local P, ROWS, COLS, CENTER = shared.P, shared.ROWS, shared.COLS, shared.CENTER
local MAX_STORE, RESOURCES, IS_RESOURCE = shared.MAX_STORE, shared.RESOURCES, shared.IS_RESOURCE
local CENTER_COST, CARDS, EXPANSION_TYPE = shared.CENTER_COST, shared.CARDS, shared.EXPANSION_TYPE

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

-- Sampling (an action's `sample`: the entry its `options` list at x's place, in [0, 1),
-- counted instead of listed). For a listing made of groups, one after the other: the
-- group's index and the entry, nil past the end.
local function nth_of_groups(groups, x)
  local count = 0
  for i = 1, #groups do count = count + #groups[i] end
  local left = (x * count) // 1
  for i = 1, #groups do
    local list = groups[i]
    if left < #list then return i, list[left + 1] end
    left = left - #list
  end
  return nil
end

-- The same for a listing of every entry of `as` with every entry of `bs` ({ a, b }, `as`
-- the outer loop); nil when either is empty.
local function nth_of_pairs(as, bs, x)
  local count = #as * #bs
  local left = (x * count) // 1
  if left >= count then return nil end
  return { as[left // #bs + 1], bs[left % #bs + 1] }
end

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

-- Whether (sr, sc) is one of region_sites(r, c), without the list.
local function is_region_site(r, c, sr, sc)
  return (sr == r or sr == outer_row(r)) and (sc == c - 1 or sc == c + 1)
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
    if k == "store" then
      local at = s.at
      return at.g:store(at.owner, P, s.row, s.col)
    end
  end,
}
local function read_placed(g, p)
  local out = {}
  local at = { g = g, owner = p } -- where every entry's store is read
  for _, s in ipairs(g:slots(p, P)) do
    local card = s.card
    if card then
      -- g:slots' own table, its store taken out: two fields more fill the eight places a
      -- table of six fields has, so it is not resized.
      s.store, s.def, s.at = nil, CARDS[card], at
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

-- p's production boosters, kept the same way (production asks at every roll, and most
-- principalities have none).
local boosters = kept_cards(function(d) return d.boosts ~= nil end)

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

-- Empty positions for a card of `placement` ("settlement_city", "city", "region"), by where
-- it goes (Settlement/City Expansions: an empty building site next to a settlement or city;
-- a city has two more, above and below).
local function placement_sites(g, p, placement, ps)
  local out = {}
  if placement == "region" then
    for _, s in ipairs(regions(g, p)) do
      local r = outer_row(s.row)
      if not top(g, p, r, s.col) then out[#out + 1] = { r, s.col } end
    end
  else
    for _, t in ipairs(towns(g, p, ps)) do
      if placement == "settlement_city" or (placement == "city" and t.city) then
        local rows = t.city and { 1, 2, 4, 5 } or { 2, 4 }
        for _, r in ipairs(rows) do
          if not top(g, p, r, t.col) then out[#out + 1] = { r, t.col } end
        end
      end
    end
  end
  table.sort(out, function(a, b) if a[1] ~= b[1] then return a[1] < b[1] end return a[2] < b[2] end)
  return out
end

-- Empty positions where card `kind` may be placed: its placement's, through the `sites`
-- filter (a card with a place of its own, as Progress's Town Hall).
local function sites(g, p, kind, ps)
  local d = CARDS[kind]
  if not d or not d.placement then return {} end
  return g:filter("sites", placement_sites(g, p, d.placement, ps), p, kind)
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
  -- (The six resources named: the table is sized once, not grown key by key.)
  local have = { brick = 0, grain = 0, wool = 0, lumber = 0, ore = 0, gold = 0 }
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
local function combos(g, n, have)
  return g:selections(n, RESOURCES, have)
end

local function resources_only(cards)
  for k in next, cards do
    if not IS_RESOURCE[k] then return false end
  end
  return true
end

-- For the parts after this one.
shared.next, shared.copy, shared.contains, shared.other = next, copy, contains, other
shared.nth_of_groups, shared.nth_of_pairs = nth_of_groups, nth_of_pairs
shared.name, shared.title, shared.cards_text, shared.total = name, title, cards_text, total
shared.order_from, shared.in_grid, shared.top = order_from, in_grid, top
shared.site_regions, shared.region_sites, shared.label = site_regions, region_sites, label
shared.is_region_site, shared.boosters = is_region_site, boosters
shared.own, shared.placed, shared.regions, shared.holders = own, placed, regions, holders
shared.ships, shared.expansions, shared.towns = ships, expansions, towns
shared.road_sites, shared.settlement_sites, shared.sites = road_sites, settlement_sites, sites
shared.placement_sites = placement_sites
shared.fits, shared.tally, shared.points, shared.hand_limit = fits, tally, points, hand_limit
shared.stock, shared.stock_total, shared.can_pay, shared.pay = stock, stock_total, can_pay, pay
shared.store_at, shared.gain, shared.only_kind = store_at, gain, only_kind
shared.gain_text, shared.cost, shared.combos = gain_text, cost, combos
shared.resources_only = resources_only
