-- Rivals for Catan: how good a position is, for the bots.
-- A part of ../rivals.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local placed, regions, tally, points = shared.placed, shared.regions, shared.tally, shared.points
local settlement_sites, boosters, is_region_site = shared.settlement_sites, shared.boosters, shared.is_region_site
local stock, CENTER = shared.stock, shared.CENTER
local CENTER_COST, EXPANSION_TYPE = shared.CENTER_COST, shared.EXPANSION_TYPE

-- Evaluation (bots) -------------------------------------------------------------------------

-- What each term is worth, in victory points (docs/bots.md, "Rivals: what was tried").
local W = {
  strength = 0.25, commerce = 0.25, skill = 0.1, progress = 0.25, -- towards the tokens, celebrations, the hand
  production = 0.1, -- per resource its regions bring on their die (a boosted region 2)
  kinds = 0.06,      -- per kind of resource produced
  stored = 0.06,     -- per resource stored
  full = -0.04,      -- per region holding 3: what it produces next is lost
  brigands = -0.03,  -- per gold and wool at stake over 7 resources
  expansion = 0.2,   -- per expansion in play (its printed points come on top)
  site = 0.1,        -- per empty building site beside a settlement or city
  hand = 0.03,       -- per card in hand (replenished at the end of the turn)
  settlement_site = 0.2, -- the first open end of the centre row a settlement can take
  near = 0.4,        -- the best of city and settlement within reach: its share of the price stored, squared
}

-- The share of `cost` that `have` covers (gold not counted: it pays only through trades).
local function covered(have, cost)
  local got, all = 0, 0
  for r, n in next, cost do
    all = all + n
    got = got + math.min(have[r] or 0, n)
  end
  if all == 0 then return 0 end
  return got / all
end

-- How good a position is for seat p, in victory points' units (docs/bots.md): points, then
-- what brings points: strength and commerce (the advantage tokens), skill and progress
-- points, production (boosters count), resources stored and how near they come to a
-- city, a settlement or a card in hand, cards in play and empty building sites for more.
-- A theme set wraps or replaces "rivals.evaluate".
filter("evaluate", "rivals.evaluate", function(g, v, p)
  local winner = g:winner()
  if winner then return v + (winner == p and 100 or 0) end
  local ps = placed(g, p)
  local t = tally(g, p)
  v = v + points(g, p) + W.strength * t.strength + W.commerce * t.commerce + W.skill * t.skill
    + W.progress * t.progress
  -- Production: each region brings 1 on its die, doubled by a booster beside it.
  local bs = boosters(g, p)
  local prod, stored, full, kinds = 0, 0, 0, {}
  for _, s in ipairs(regions(g, p)) do
    local n = 1
    for i = 1, #bs do
      local b = bs[i]
      if b.def.boosts == s.def.resource and is_region_site(s.row, s.col, b.row, b.col) then n = n + 1 end
    end
    prod = prod + n
    stored = stored + s.store
    if s.store >= 3 then full = full + 1 end
    kinds[s.def.resource] = true
  end
  local nk = 0
  for _ in next, kinds do nk = nk + 1 end
  v = v + W.production * prod + W.kinds * nk + W.stored * stored + W.full * full
  local have = stock(g, p)
  if stored > 7 then v = v + W.brigands * (have.gold + have.wool) end
  -- Cards in play and the empty building sites beside settlements and cities.
  local taken, towns, built = {}, {}, 0
  for i = 1, #ps do
    local s = ps[i]
    taken[s.row * 100 + s.col] = true
    local d = s.def
    if d then
      if EXPANSION_TYPE[d.type] then built = built + 1 end
      if s.row == CENTER and d.town then towns[#towns + 1] = s end
    end
  end
  local free = 0
  for _, s in ipairs(towns) do
    for _, r in ipairs(s.def.city and { 1, 2, 4, 5 } or { 2, 4 }) do
      if not taken[r * 100 + s.col] then free = free + 1 end
    end
  end
  v = v + W.expansion * built + W.site * free + W.hand * g:count(p, "hand")
  local open = #settlement_sites(g, p)
  if open > 0 then v = v + W.settlement_site end
  -- The point the stored resources come nearest to: a city, or a settlement where one may
  -- go (else the road to its site). Not the cheap expansions: what the term gives for a
  -- full price it takes back when the price is paid, which would keep them unbuilt.
  local near = 0
  local function consider(cost)
    local c = covered(have, cost)
    if c > near then near = c end
  end
  for _, s in ipairs(towns) do
    if not s.def.city then consider(CENTER_COST.city) break end
  end
  if open > 0 then consider(CENTER_COST.settlement) else consider(CENTER_COST.road) end
  return v + W.near * near * near
end)
