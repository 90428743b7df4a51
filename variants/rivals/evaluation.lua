-- Rivals for Catan: how good a position is, for the bots.
-- A part of ../rivals.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local placed, regions, tally, points = shared.placed, shared.regions, shared.tally, shared.points
local settlement_sites, road_sites = shared.settlement_sites, shared.road_sites
local placement_sites = shared.placement_sites
local towns, stock, CARDS, CENTER_COST = shared.towns, shared.stock, shared.CARDS, shared.CENTER_COST
local next = shared.next

-- The share of a price the stored resources cover (1: p can pay it).
local function covered(have, price)
  local got, need = 0, 0
  for r, n in next, price do
    need = need + n
    got = got + math.min(have[r] or 0, n)
  end
  return need > 0 and got / need or 0
end

-- What p has the room to build, whatever its resources: a city on a settlement, a
-- settlement beyond a road, a road beyond a settlement or city, and an expansion by where
-- it goes (an empty building site for its placement; a region expansion is taken to fit).
-- Kept while p's cards stay (`g:cached`).
local function read_room(g, p)
  local ps = placed(g, p)
  local room = {
    city = false, settlement = #settlement_sites(g, p) > 0, road = #road_sites(g, p) > 0,
    site = {
      settlement_city = #placement_sites(g, p, "settlement_city", ps) > 0,
      city = #placement_sites(g, p, "city", ps) > 0,
      region = true,
    },
  }
  for _, t in ipairs(towns(g, p, ps)) do
    if not t.city then
      room.city = true
      break
    end
  end
  return room
end

-- How near p's stored resources are to the best build p has the room for, the share of
-- its printed price covered, squared, times what the build brings: a trade or a card that
-- brings a city within reach is worth something before the city is built. (The printed
-- prices, not the `cost` filter's: the bots ask this of every position they weigh.)
local function nearest_build(g, p)
  local room = g:cached(read_room, p, "seat_cards")
  local have, best = stock(g, p), 0
  local function try(w, price)
    if w > best then best = math.max(best, w * covered(have, price) ^ 2) end
  end
  if room.city then try(0.6, CENTER_COST.city) end
  if room.settlement then
    try(0.6, CENTER_COST.settlement)
  elseif room.road then
    try(0.3, CENTER_COST.road)
  end
  if best < 0.3 then
    for kind in next, g:cards(p, "hand") do
      local d = CARDS[kind]
      if d and d.cost and room.site[d.placement] then try(0.3 + 0.3 * (d.vp or 0), d.cost) end
    end
  end
  return best
end

-- Evaluation (bots) -------------------------------------------------------------------------

-- How good a position is for seat p, in victory points' units (docs/bots.md): points, then
-- what brings points: strength and commerce (the advantage tokens), skill and progress
-- points, resources stored, regions (each pays on its die face), cards in play and in hand,
-- and how near the stores are to paying for the next build. A theme set wraps or replaces "rivals.evaluate".
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
  v = v + 0.06 * stored + 0.1 * lands + 0.05 * cards + 0.05 * g:count(p, "hand")
  return v + 0.35 * #settlement_sites(g, p) + nearest_build(g, p)
end)

-- Named features for a tuned evaluation (`catan tune`, docs/bots.md): what the engine's
-- generic features cannot read, since they come from the cards' printed values: the
-- points toward the advantage tokens and of skill and progress, the resources stored, the
-- regions, the settlement sites the roads open, and how near the stores are to the best
-- build (as above). The weights file weighs them.
filter("features", "rivals.features", function(g, t, p)
  local tl = tally(g, p)
  t.strength, t.commerce, t.skill, t.progress = tl.strength, tl.commerce, tl.skill, tl.progress
  local stored, lands = 0, 0
  for _, s in ipairs(regions(g, p)) do
    lands = lands + 1
    stored = stored + s.store
  end
  t.stored, t.regions, t.sites = stored, lands, #settlement_sites(g, p)
  t.near = nearest_build(g, p)
  return t
end)
