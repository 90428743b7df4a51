-- CATAN: how good a position is, for the bots (docs/bots.md).
-- A part of ../base.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local RESOURCES, cost = shared.RESOURCES, shared.cost
local opt = shared.opt

-- Evaluation (bots) -------------------------------------------------------------------------

-- How good a position is for seat p, in victory points' units: the bots' search scores the
-- positions it reaches with it (docs/bots.md). Built from what a player weighs at the table:
-- points, expected production by number pips with a bonus for each resource produced,
-- harbors, development cards and knights, cards in hand towards the next build (and the risk
-- of a 7), and open sites for a next settlement. A child wraps or replaces "base.evaluate".
-- Expected production is the engine's `g:expected_production`: the pips of the numbers
-- around each building (the chances in 36 of rolling them), twice for a city, none under
-- the robber.

-- The share of the price of `what` that p's hand covers (1: p can pay it).
local function covered(g, p, what)
  local lacking, need = g:lacks(p, "hand", cost(g, what, p))
  return need > 0 and (need - lacking) / need or 0
end

-- The sites where p may build a settlement now (none once its settlements are all out).
local function open_sites(g, p)
  return g:supply(p, "settlement") > 0 and g:open_intersections(2, p) or {}
end

-- What p has the pieces and the room to build, whatever its hand.
local function buildable(g, p, spots)
  return {
    city = g:supply(p, "city") > 0 and g:piece_count(p, "settlement") > 0,
    settlement = #spots > 0,
    development = not g:empty(nil, "deck"),
    road = g:supply(p, "road") > 0,
  }
end

-- Each build, what nearing it is worth to the evaluation, and its named feature.
local BUILDS = {
  { what = "city", worth = 0.6, feature = "near.city" },
  { what = "settlement", worth = 0.6, feature = "near.settlement" },
  { what = "development", worth = 0.3, feature = "near.development" },
  { what = "road", worth = 0.15, feature = "near.road" },
}

-- What p's hand nears: the cards it holds, its open sites, and for each build it has the
-- pieces and the room for, the share of the price the hand covers, squared (0 otherwise).
-- The evaluation and the named features below both read it, computed once (`outlook`).
local function nearness(g, p)
  local n = g:count(p, "hand")
  local spots = open_sites(g, p)
  local can = buildable(g, p, spots)
  local near = {}
  for _, b in ipairs(BUILDS) do
    local what = b.what
    near[what] = (n > 0 and can[what]) and covered(g, p, what) ^ 2 or 0
  end
  return { n = n, spots = spots, near = near }
end

-- Computed once a seat: its named features and its evaluation both read it (`scratch`, one
-- table for the seats of one position; a wrapper that does not pass it on costs a second
-- computation, nothing more).
local function outlook(g, p, scratch)
  local o = scratch and scratch[p]
  if not o then
    o = nearness(g, p)
    if scratch then scratch[p] = o end
  end
  return o
end

filter("evaluate", "base.evaluate", function(g, v, p, scratch, points)
  local winner = g:winner()
  if winner then return v + (winner == p and 100 or 0) end
  -- The points, hidden ones included, as the engine counted them for this position (a
  -- wrapper written before the engine passed them may not forward them: counted here then).
  v = v + (points or g:filter("victory_points", 0, p, true))
  local sum, prod = g:expected_production(p)
  local kinds = 0
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
  -- The hand: a little per card, more as it nears a build (the nearest counts); over the
  -- discard limit it is at risk on a 7.
  local o = outlook(g, p, scratch)
  local n, spots = o.n, o.spots
  local best = 0
  for _, b in ipairs(BUILDS) do
    best = math.max(best, b.worth * o.near[b.what])
  end
  v = v + 0.03 * n + best
  local limit = opt(g, "discard_limit")
  if n > limit then v = v - 0.08 * (n - limit) end
  -- Room to grow: open sites reachable by road, the best of them by its pips.
  if #spots > 0 then
    local top = 0
    for i = 1, math.min(#spots, 4) do top = math.max(top, (g:expected_production_at(spots[i]))) end
    v = v + 0.2 * math.min(#spots, 2) + 0.02 * top
  end
  return v
end)

-- Named features for a tuned evaluation (`catan tune`, docs/bots.md): what the engine's
-- generic features cannot say, since they add up linearly: how near the hand is to each
-- build (the share of its price covered, squared, as above; 0 when it cannot be built) and
-- the cards over the discard limit. The weights file weighs them beside the rest.
filter("features", "base.features", function(g, t, p, scratch)
  local o = outlook(g, p, scratch)
  for _, b in ipairs(BUILDS) do
    t[b.feature] = o.near[b.what]
  end
  t.over_limit = math.max(0, o.n - opt(g, "discard_limit"))
  return t
end)
