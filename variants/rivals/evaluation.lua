-- Rivals for Catan: how good a position is, for the bots.
-- A part of ../rivals.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local placed, regions, tally, points = shared.placed, shared.regions, shared.tally, shared.points
local settlement_sites = shared.settlement_sites

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
  v = v + 0.06 * stored + 0.1 * lands + 0.05 * cards + 0.05 * g:count(p, "hand")
  return v + 0.35 * #settlement_sites(g, p)
end)

-- Named features for a tuned evaluation (`catan tune`, docs/bots.md): what the engine's
-- generic features cannot read, since they come from the cards' printed values: the
-- points toward the advantage tokens and of skill and progress, the resources stored, the
-- regions, and the settlement sites the roads open. The weights file weighs them.
filter("features", "rivals.features", function(g, t, p)
  local tl = tally(g, p)
  t.strength, t.commerce, t.skill, t.progress = tl.strength, tl.commerce, tl.skill, tl.progress
  local stored, lands = 0, 0
  for _, s in ipairs(regions(g, p)) do
    lands = lands + 1
    stored = stored + s.store
  end
  t.stored, t.regions, t.sites = stored, lands, #settlement_sites(g, p)
  return t
end)
