-- CATAN: the roll, resource production, and a 7: discarding, moving the robber, stealing.
-- Rulebook: The Turn in Detail, 1. Resource Production; Special Cases, a) Rolling a "7" and
-- Activating the Robber; Almanac: Resource Production, Robber, Rolling a "7".
-- A part of ../base.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local RESOURCES, IS_RESOURCE = shared.RESOURCES, shared.IS_RESOURCE
local next = shared.next
local cards_text, plural, total, has = shared.cards_text, shared.plural, shared.total, shared.has
local pay, hand_size, opt, name = shared.pay, shared.hand_size, shared.opt, shared.name
local why_not_turn, contains = shared.why_not_turn, shared.contains

-- The turn: production, the robber -------------------------------------------------------

local function produce(g, roll)
  -- Resource Production, as base.lua declares it (`production`, and each piece's `yields`):
  -- the engine pays each player what the hexes of the number yield them. `paid[resource]
  -- [seat]`: the cards each seat received; `short[resource]`: who took what was left of a
  -- resource the bank was short of (false: nobody).
  local paid, short = g:produce(roll)
  local got = {} -- seat -> cards received, for the "produced" event
  for _, r in ipairs(RESOURCES) do
    local to, taker = paid[r], short[r]
    if taker then
      g:log("the bank is short of " .. r .. ": " .. name(g, taker) .. " receives " .. (to and to[taker] or 0))
    elseif taker == false then
      g:log("the bank is short of " .. r .. ": nobody receives " .. r)
    end
    if to then
      for p = 1, g:players() do
        local n = to[p]
        if n then
          if taker == nil then
            if n == 1 then g:log("%s receives %s", g:color(p), r) else g:log("%s receives %d %s", g:color(p), n, r) end
          end
          got[p] = got[p] or {}
          got[p][r] = n
        end
      end
    end
  end
  g:emit("produced", { seat = g:current(), roll = roll, got = got })
end

local function robber_phase(g, return_phase)
  g:set("return_phase", return_phase)
  g:set_phase("robber")
end

-- Rolling a 7 (sequence point "seven", run by the roll as (seat, phase after the robber)): no
-- production; more than 7 cards discard half, rounded down; then the robber moves. A variant
-- may wrap base.seven to let a player decide something first and run it later.
sequence("seven", "base.seven", function(g, p, after)
  local owed, any = {}, false
  for q = 1, g:players() do
    local n = hand_size(g, q)
    local d7 = g:filter("discard_count", n > opt(g, "discard_limit") and n // 2 or 0, q, n)
    if d7 > 0 then owed[q] = d7; any = true end
  end
  g:set("robber_return", after)
  if any then
    -- Each player learns what they owe before they choose (Rulebook: Rolling a "7").
    for q = 1, g:players() do
      if owed[q] then g:log("%s must discard %d %s", g:color(q), owed[q], plural(owed[q], "card")) end
    end
    g:set("discards", owed)
    g:set_phase("discard")
  else
    robber_phase(g, after)
  end
end)

-- The dice rolled over the game, for the summary at its end: how often each sum came up.
filter("tallies", "base.dice_rolled", function(g, tallies)
  local rolls = g:get("rolls") or {}
  local rows = {}
  for sum = 2, 12 do rows[#rows + 1] = { tostring(sum), rolls[sum] or 0 } end
  tallies[#tallies + 1] = { "dice rolled", rows }
  return tallies
end)

action {
  name = "roll",
  phases = { "roll" },
  syntax = "roll",
  help = "roll the dice for resource production",
  why_not = why_not_turn,
  turn = true,
  apply = function(g, p)
    local d = g:roll(2)
    local sum = d[1] + d[2]
    g:set("last_roll", d)
    -- How often each sum came up, for the dice at the game's end.
    g:set_entry("rolls", sum, (g:get("rolls", sum) or 0) + 1)
    g:log("%s rolls %d+%d = %d", g:color(p), d[1], d[2], sum)
    local after = g:option("combined_trade_build") and "main" or "trade"
    if sum == 7 then
      g:run("seven", p, after)
    else
      produce(g, sum)
      g:set_phase(after)
    end
    g:emit("rolled", { seat = p, dice = d, sum = sum })
  end,
}

action {
  name = "discard",
  phases = { "discard" },
  syntax = "discard <cards>",
  help = "on a 7, discard half your resource cards (rounded down), chosen by you",
  when = function(g, p) return g:phase() == "discard" and (g:get("discards", p) or 0) > 0 end,
  -- Every way to discard what is owed from the hand; a bot's draw picks one of them
  -- without listing the hundreds of ways to halve a large hand.
  options = function(g, p)
    return g:selections(g:get("discards", p), RESOURCES, g:cards(p, "hand"))
  end,
  sample = function(g, p, r)
    return g:selection(g:get("discards", p), RESOURCES, g:cards(p, "hand"), r)
  end,
  legal = function(g, p, cards)
    local owed = g:get("discards", p)
    for k in pairs(cards) do
      if not IS_RESOURCE[k] then return deny("only resource cards are discarded") end
    end
    if total(cards) ~= owed then return deny("you must discard exactly " .. owed .. " " .. plural(owed, "card")) end
    if not has(g, p, cards) then return deny("you do not hold those cards") end
    return true
  end,
  apply = function(g, p, cards)
    pay(g, p, cards)
    g:log(name(g, p) .. " discards " .. cards_text(cards))
    local owed = g:get("discards")
    owed[p] = nil
    if next(owed) then
      g:set("discards", owed)
    else
      g:set("discards", nil)
      robber_phase(g, g:get("robber_return"))
    end
    g:emit("discarded", { seat = p, cards = cards })
  end,
}

local function robber_targets(g)
  local current = g:marker("robber")
  local out = {}
  for h = 1, g:hex_count() do
    local terrain = g:hex(h)
    if h ~= current and (terrain ~= "desert" or opt(g, "robber_desert")) then out[#out + 1] = h end
  end
  return g:filter("robber_targets", out, g:current())
end

local function victims(g, p, hex)
  local out = {}
  for _, q in ipairs(g:owners_at(hex)) do
    if q ~= p then out[#out + 1] = q end
  end
  return g:filter("steal_targets", out, p, hex)
end

local function steal(g, p, victim)
  local card = g:random_card(victim, "hand", "resource")
  if card then
    g:move(victim, "hand", p, "hand", card, 1)
    g:log("%s steals a card from %s", name(g, p), name(g, victim))
    g:tell({ p, victim }, name(g, p) .. " stole " .. card .. " from " .. name(g, victim))
  else
    g:log(name(g, p) .. " steals from " .. name(g, victim) .. ", who has no cards")
  end
  g:emit("stole", { seat = p, victim = victim })
end

local function finish_robber(g)
  g:set_phase(g:get("return_phase"))
  g:set("return_phase", nil)
  g:set("robber_return", nil)
end

action {
  name = "robber",
  phases = { "robber" },
  syntax = "robber <hex>",
  help = "move the robber to another hex",
  why_not = why_not_turn,
  turn = true,
  options = function(g, p) return robber_targets(g) end,
  legal = function(g, p, hex)
    if hex == g:marker("robber") then return deny("the robber must move to another hex") end
    if not contains(robber_targets(g), hex) then return deny("the robber may not go there") end
    return true
  end,
  apply = function(g, p, hex)
    g:set_marker("robber", hex)
    g:log("%s moves the robber to H%d", name(g, p), hex)
    g:emit("robber_moved", { seat = p, hex = hex })
    local vs = victims(g, p, hex)
    if #vs == 0 then
      finish_robber(g)
    elseif #vs == 1 then
      steal(g, p, vs[1])
      finish_robber(g)
    else
      g:set_phase("steal")
    end
  end,
}

action {
  name = "steal",
  phases = { "steal" },
  syntax = "steal <player>",
  help = "take a random resource card from a player next to the robber",
  turn = true,
  options = function(g, p) return victims(g, p, g:marker("robber")) end,
  legal = function(g, p, victim)
    if not contains(victims(g, p, g:marker("robber")), victim) then
      return deny("you may only steal from a player with a building next to the robber")
    end
    return true
  end,
  apply = function(g, p, victim)
    steal(g, p, victim)
    finish_robber(g)
  end,
}

-- For the parts after this one.
shared.robber_phase = robber_phase
