-- CATAN: small helpers: cards, prices (the cost filter), seats, and the phases of a turn.
-- Rulebook: Building Costs Card; Turn Overview; Almanac: Combined Trade/Build Phase.
-- A part of ../base.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local RESOURCES = shared.RESOURCES

-- Small helpers ------------------------------------------------------------------------

-- Raw `next` for loops whose result does not depend on order (copies, sums, checks, moves
-- that all happen); `pairs` (sorted, deterministic) everywhere else.
local next = next

local function copy(t)
  local c = {}
  for k, v in next, t do c[k] = v end
  return c
end

local function cards_text(cards)
  local parts = {}
  for _, r in ipairs(RESOURCES) do
    local n = cards[r]
    if n and n > 0 then parts[#parts + 1] = (n == 1 and r) or (n .. " " .. r) end
  end
  if #parts == 0 then return "nothing" end
  return table.concat(parts, " ")
end

-- "1 card", "2 cards": `word` is the singular.
local function plural(n, word) return n == 1 and word or (word .. "s") end

local function total(cards)
  local n = 0
  for _, v in next, cards do n = n + v end
  return n
end

-- Does p hold `cards`? `hand` (g:cards(p, "hand")) may be passed when asking many times.
local function has(g, p, cards, hand)
  if not hand then return g:holds(p, "hand", cards) end
  for k, n in next, cards do
    if (hand[k] or 0) < n then return false end
  end
  return true
end

local function pay(g, p, cards)
  for k, n in next, cards do
    if n > 0 then g:move(p, "hand", nil, "bank", k, n) end
  end
end

local function hand_size(g, p) return g:count_category(p, "hand", "resource") end

-- Any price with every variant's changes, read-only: g:price asks the "cost" filter, which
-- starts from the prices of components.lua (its first hook, base.cost;
-- replace_hook("base.cost") reprices everything).
local function cost(g, what, p) return g:price(what, p) end

-- A price in a refusal ("you cannot pay brick lumber"): the engine asks it of the actions
-- that declare their `cost`.
filter("price_text", "base.price_text", function(g, text, cards) return cards_text(cards) end)

-- What `help` and `legal` say an action costs the seat now, after every variant's cost
-- filter (a house rule's price, not the printed one).
local COST_OF = { settlement = "settlement", road = "road", city = "city", buy = "development" }
filter("action_note", "base.costs", function(g, text, p, action)
  local what = COST_OF[action]
  if not what then return text end
  local ph = g:phase()
  if ph == "setup" or (action == "road" and ph == "road_building") then return "free now" end
  local c, parts = cost(g, what, p), {}
  for _, r in ipairs(RESOURCES) do
    local n = c[r]
    if n and n > 0 then parts[#parts + 1] = n == 1 and r or (n .. " " .. r) end
  end
  return "costs " .. (#parts == 0 and "nothing" or table.concat(parts, ", "))
end)

local function opt(g, name) return g:option(name) end

local function name(g, p) return g:color(p) end

local function other_seats(g, from)
  local n, out = g:players(), {}
  for i = 1, n - 1 do out[#out + 1] = (from - 1 + i) % n + 1 end
  return out
end

-- The phases of a player's turn after the roll. Trade and build phases: combined, or trade
-- then build (Almanac: Combined Trade/Build). Building is also open in the 5-6 player
-- Special Building Phase (5_6_players.lua).
local IN_TURN = { main = true, trade = true, build = true }
local MAY_TRADE = { main = true, trade = true }
local MAY_BUILD = { main = true, trade = true, build = true, special_building = true }
local function in_turn(g) return IN_TURN[g:phase()] or false end
local function may_trade(g) return MAY_TRADE[g:phase()] or false end
local function may_build(g) return MAY_BUILD[g:phase()] or false end
local function did_build(g)
  if g:phase() == "trade" then g:set_phase("build") end
end

-- For the parts after this one.
shared.next, shared.copy, shared.cards_text, shared.plural = next, copy, cards_text, plural
shared.total, shared.has, shared.pay = total, has, pay
shared.hand_size, shared.cost, shared.opt = hand_size, cost, opt
shared.name, shared.other_seats, shared.in_turn = name, other_seats, in_turn
shared.may_trade, shared.may_build, shared.did_build = may_trade, may_build, did_build
shared.IN_TURN, shared.MAY_TRADE, shared.MAY_BUILD = IN_TURN, MAY_TRADE, MAY_BUILD
