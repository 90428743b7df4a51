-- CATAN: trade: maritime trade with the bank, domestic trade between players.
-- Rulebook: The Turn in Detail, 2. Trade; Almanac: Maritime Trade, Domestic Trade, Harbors.
-- A part of ../base.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local RESOURCES, IS_RESOURCE, next = shared.RESOURCES, shared.IS_RESOURCE, shared.next
local cards_text, plural = shared.cards_text, shared.plural
local total, has, pay, name = shared.total, shared.has, shared.pay, shared.name
local other_seats, may_trade = shared.other_seats, shared.may_trade
local why_not_turn = shared.why_not_turn

-- Trade ------------------------------------------------------------------------------------

-- Maritime Trade: 4:1, 3:1 at a generic harbor, 2:1 at a harbor of that resource.
local function ratio(g, p, r, harbors)
  local best = 4
  for _, h in ipairs(harbors or g:harbors_of(p)) do
    if (h.resource == nil or h.resource == r) and h.ratio < best then best = h.ratio end
  end
  return g:filter("trade_ratio", best, p, r)
end

-- What p can give the bank now: for each resource p holds enough of, in RESOURCES order, a
-- group of it at p's best ratio ({ { ore = 4 }, { wool = 2 } }). A resource p holds none
-- of is not asked its ratio (a ratio is 1 or more).
local function trade_gives(g, p)
  local hand, harbors, out = g:cards(p, "hand"), nil, {}
  for _, r in ipairs(RESOURCES) do
    local n = hand[r]
    if n and n > 0 then
      harbors = harbors or g:harbors_of(p)
      local k = ratio(g, p, r, harbors)
      if n >= k then out[#out + 1] = { [r] = k } end
    end
  end
  return out
end

action {
  name = "trade",
  phases = { "main", "trade" },
  syntax = "trade <cards> for <cards>",
  help = "maritime trade with the bank, e.g. `trade 4 ore for brick` (4:1 always; 3:1 or 2:1 at your harbors)",
  why_not = why_not_turn,
  turn = true,
  -- Each group p can give for each other resource the bank holds (g:trades), and the
  -- one at a bot's draw without listing the rest (g:trade_at).
  options = function(g, p) return g:trades(trade_gives(g, p), RESOURCES, "bank") end,
  sample = function(g, p, x) return g:trade_at(trade_gives(g, p), RESOURCES, "bank", x) end,
  -- "The 4:1 trade is always possible, even if you do not have a settlement on a harbor":
  -- each card taken is paid with a group of one resource at any ratio from the player's
  -- best for it up to 4:1 (Almanac: 4 ore at a 2:1 ore harbor buy 1 card or 2).
  legal = function(g, p, give, get)
    local least, most, rates = 0, 0, {}
    for _, r in ipairs(RESOURCES) do
      local n = give[r]
      if n then
        local k = ratio(g, p, r)
        local worst = math.max(4, k)
        local lo, hi = (n + worst - 1) // worst, n // k
        if lo > hi then
          return deny(n .. " " .. r .. " cannot be traded: you trade " .. r .. " at "
            .. (k == worst and (k .. ":1") or (k .. ":1 to " .. worst .. ":1")))
        end
        least, most = least + lo, most + hi
        rates[#rates + 1] = r .. " at " .. k .. ":1"
      end
    end
    for r in pairs(give) do
      if not IS_RESOURCE[r] then return deny("only resource cards can be traded") end
    end
    for r, n in pairs(get) do
      if not IS_RESOURCE[r] then return deny("only resource cards can be traded") end
      if give[r] then return deny("you may not trade like for like") end
      if g:count(nil, "bank", r) < n then return deny("the bank has too few " .. r) end
    end
    local want = total(get)
    if most == 0 or want < least or want > most then
      local range = least == most and tostring(least) or (least .. " to " .. most)
      return deny("you trade " .. table.concat(rates, ", ") .. " (4:1 always): " .. cards_text(give)
        .. " buy " .. range .. " " .. plural(most, "card") .. ", not " .. want)
    end
    if not has(g, p, give) then return deny("you do not hold those cards") end
    return true
  end,
  apply = function(g, p, give, get)
    pay(g, p, give)
    for r, n in next, get do g:move(nil, "bank", p, "hand", r, n) end
    g:log("%s trades %c to the bank for %c", name(g, p), give, get)
    g:emit("traded", { seat = p, with = "bank", give = give, get = get })
  end,
}

-- Domestic Trade: only with the player whose turn it is; no gifts, no like for like, no
-- development cards. The active player offers; each other player accepts, declines or
-- counters; the active player then confirms a partner or cancels.
local function check_offer(give, get)
  if total(give) == 0 or total(get) == 0 then return "no gifts: both sides must give cards" end
  for r in pairs(give) do
    if not IS_RESOURCE[r] then return "only resource cards can be traded" end
    if get[r] then return "you may not trade like for like" end
  end
  for r in pairs(get) do
    if not IS_RESOURCE[r] then return "only resource cards can be traded" end
  end
end

action {
  name = "offer",
  phases = { "main", "trade" },
  syntax = "offer <cards> for <cards>",
  help = "offer the other players a trade, e.g. `offer ore for brick`",
  -- 5-6 Player Expansion: player 2 of a paired turn may not trade with other players.
  turn = true,
  when = function(g, p) return not g:get("paired") end,
  why_not = function(g, p)
    if p == g:current() and may_trade(g) and g:get("paired") then
      return "player 2 of a paired turn may not trade with other players, only with the bank"
    end
    return why_not_turn(g, p)
  end,
  legal = function(g, p, give, get)
    local bad = check_offer(give, get)
    if bad then return deny(bad) end
    if not has(g, p, give) then return deny("you do not hold those cards") end
    return true
  end,
  apply = function(g, p, give, get)
    g:set("offer", { from = p, give = give, get = get, responses = {}, counters = {}, phase = g:phase() })
    g:set_phase("offer")
    g:log(name(g, p) .. " offers " .. cards_text(give) .. " for " .. cards_text(get))
  end,
}

local function responding(g, p)
  if g:phase() ~= "offer" then return false end
  return p ~= g:get("offer", "from") and not g:get("offer", "responses")[p]
end

local function respond(g, p, answer, counter)
  local offer = g:get("offer")
  offer.responses[p] = answer
  if counter then offer.counters[p] = counter end
  g:set("offer", offer)
end

action {
  name = "accept",
  phases = { "offer" },
  syntax = "accept",
  help = "accept the trade on offer",
  when = responding,
  legal = function(g, p)
    if not has(g, p, g:get("offer").get) then return deny("you do not hold the cards asked for") end
    return true
  end,
  apply = function(g, p)
    respond(g, p, "accept")
    g:log(name(g, p) .. " accepts")
  end,
}

action {
  name = "decline",
  phases = { "offer" },
  syntax = "decline",
  help = "decline the trade on offer",
  when = responding,
  apply = function(g, p)
    respond(g, p, "decline")
    g:log(name(g, p) .. " declines")
  end,
}

action {
  name = "counter",
  phases = { "offer" },
  syntax = "counter <cards> for <cards>",
  help = "counter the offer: the cards you give for the cards you want",
  when = responding,
  legal = function(g, p, give, get)
    local bad = check_offer(give, get)
    if bad then return deny(bad) end
    if not has(g, p, give) then return deny("you do not hold those cards") end
    return true
  end,
  apply = function(g, p, give, get)
    respond(g, p, "counter", { give = give, get = get })
    g:log(name(g, p) .. " counters: " .. cards_text(give) .. " for " .. cards_text(get))
  end,
}

local function all_answered(g)
  if g:phase() ~= "offer" then return false end
  local responses = g:get("offer", "responses")
  for _, q in ipairs(other_seats(g, g:get("offer", "from"))) do
    if not responses[q] then return false end
  end
  return true
end

local function close_offer(g)
  local offer = g:get("offer")
  g:set("offer", nil)
  g:set_phase(offer.phase)
end

-- The terms a partner's answer stands for, from the active player's side.
local function terms(offer, q)
  local answer = offer.responses[q]
  if answer == "accept" then return offer.give, offer.get end
  if answer == "counter" then
    local c = offer.counters[q]
    return c.get, c.give
  end
end

-- What `legal` and `help` note beside the answers to an offer: its terms, from the side of
-- the player who reads them (a counter's terms are the partner's own).
filter("action_note", "base.offer_terms", function(g, text, p, action)
  if g:phase() ~= "offer" then return text end
  local offer = g:get("offer")
  if action == "accept" then
    return "you give " .. cards_text(offer.get) .. " for " .. cards_text(offer.give)
  elseif action == "counter" then
    return name(g, offer.from) .. " offers " .. cards_text(offer.give) .. " for " .. cards_text(offer.get)
  elseif action == "confirm" then
    local parts = {}
    for _, q in ipairs(other_seats(g, p)) do
      local give, get = terms(offer, q)
      if give then
        parts[#parts + 1] = name(g, q) .. ": you give " .. cards_text(give) .. " for " .. cards_text(get)
      end
    end
    return #parts > 0 and table.concat(parts, "; ") or "nobody accepted or countered"
  end
  return text
end)

action {
  name = "confirm",
  phases = { "offer" },
  syntax = "confirm <player>",
  help = "trade with a player who accepted or countered",
  turn = true,
  when = function(g, p) return all_answered(g) end,
  options = function(g, p)
    local offer, out = g:get("offer"), {}
    for _, q in ipairs(other_seats(g, p)) do
      local give, get = terms(offer, q)
      if give and has(g, p, give) and has(g, q, get) then out[#out + 1] = q end
    end
    return out
  end,
  legal = function(g, p, q)
    local give, get = terms(g:get("offer"), q)
    if not give then return deny(name(g, q) .. " did not accept or counter") end
    if not has(g, p, give) or not has(g, q, get) then return deny("one of you no longer holds the cards") end
    return true
  end,
  apply = function(g, p, q)
    local give, get = terms(g:get("offer"), q)
    for r, n in next, give do g:move(p, "hand", q, "hand", r, n) end
    for r, n in next, get do g:move(q, "hand", p, "hand", r, n) end
    g:log(name(g, p) .. " trades " .. cards_text(give) .. " to " .. name(g, q) .. " for " .. cards_text(get))
    close_offer(g)
    g:emit("traded", { seat = p, with = q, give = give, get = get })
  end,
}

action {
  name = "cancel",
  phases = { "offer" },
  syntax = "cancel",
  help = "withdraw your trade offer",
  when = function(g, p) return g:phase() == "offer" and p == g:get("offer").from end,
  apply = function(g, p)
    close_offer(g)
    g:log(name(g, p) .. " withdraws the offer")
  end,
}
