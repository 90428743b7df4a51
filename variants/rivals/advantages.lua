-- Rivals for Catan: the strength and trade advantages, victory points.
-- Rulebook: Other Rules 1: Strength Advantage and Trade Advantage.
-- A part of ../rivals.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local other, name, placed, tally = shared.other, shared.name, shared.placed, shared.tally
local points, hand_limit = shared.points, shared.hand_limit
local stock, RESOURCES = shared.stock, shared.RESOURCES

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

-- After every action; `when_changed`: the engine runs it again only once something it read
-- (the winner, the cards of either principality, the tokens) has changed.
sequence("after_action", "rivals.advantages", function(g)
  if g:winner() then return end
  update_advantages(g)
end, { when_changed = true })

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
  -- `show hand`: the resources are stored on the regions, not held as cards.
  local have, parts, n = stock(g, p), {}, 0
  for _, r in ipairs(RESOURCES) do
    parts[#parts + 1] = have[r] .. " " .. r
    n = n + have[r]
  end
  info.holdings = "resources: " .. table.concat(parts, ", ") .. " (" .. n .. " in all)"
  return info
end)

-- `show board`: what the marks beside a label mean.
filter("board_legend", "rivals.legend", function()
  return "  ● one resource stored on the card (a region holds 0 to 3); `city +1`: a city on its settlement"
end)

filter("to_act", "rivals.to_act", function(g, seat)
  if g:phase() == "choose" then
    local task = g:get("queue", 1)
    if task then return task.seat end
  end
  return seat
end)
