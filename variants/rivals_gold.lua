-- Rivals for Catan, Theme Game "The Era of Gold" (../shared/rules/004: "PLAYING THE THEME
-- GAMES", Special Rules 1, and the card index "THE ERA OF GOLD"). The general Theme Game
-- rules are rivals_theme.lua; this file is the set: its 27 cards (costs and points from
-- ../shared/reference/rivals_cards.csv) and their rules.
--
--   action cards     Brigands, Goldsmith (a 3rd copy), Gudrun, Merchant (2), Reiner the
--                    Herald, Trade Master (2): `play ...`
--   region expansion Gold Cache (stores gold, safe from the Brigand Attack)
--   settlement/city  Storehouse, Toll Bridge, Large Trade Ship (a copy each), Pirate Ship (2)
--   city expansions  Harbor, Merchant Guild (2, the face-up stack), Moneylender, Mint (2),
--                    Salt Silo, Staple House (2), Trading Base
--   events           Gift for the Prince, Trade Ships Race, Traveling Merchant
--
-- Where the card index and our card data leave a detail open it is said at the card.

variant {
  extends = "rivals_theme",
  description = "Rivals for Catan: the Theme Game \"The Era of Gold\" (2 players, 12 points): the "
    .. "Basic Set with the 27 cards of the Era of Gold.",
  cards = {
    expansion = {
      "gold_cache", "pirate_ship", "harbor", "merchant_guild", "moneylender", "mint", "salt_silo",
      "staple_house", "trading_base",
    },
    action = { "gudrun", "merchant", "reiner", "trade_master" },
    event = { "gift_for_the_prince" },
  },
}

local R = rivals
local CARDS = R.cards
local name, other, title = R.name, R.other, R.title

local has = R.has
local function trade_ships(g, p) return #R.expansions(g, p, "ship") end

-- Cards ---------------------------------------------------------------------------------------

-- Region expansion. Our card data prints no cost and the requirement "a hero with at least
-- 1 strength point" (rivals_cards.csv, confidence medium); it holds up to 3 gold like a region.
R.expansion({ name = "gold_cache", type = "site", placement = "region", copies = 0, cost = {},
  stores = true, resource = "gold",
  text = "region expansion: stores up to 3 gold, safe from the brigand attack; needs a hero with strength",
  index = "Gold Cache: above or below any region. Gold in it is safe from the Brigand Attack and may be "
    .. "used freely; gold demanded by the opponent's cards may come from it.",
  requires = function(g, p)
    for _, s in ipairs(R.expansions(g, p, "hero")) do
      if (s.def.strength or 0) >= 1 then return true end
    end
    return false, "the Gold Cache needs a hero with at least 1 strength point in your principality"
  end })

R.expansion({ name = "pirate_ship", type = "unit", copies = 0, cost = { wool = 1, lumber = 1 },
  text = "when built, your opponent removes a trade ship of their choice; 1 gold more on a plentiful harvest",
  index = "Pirate Ship: sinks one trade ship only when built (nothing if the opponent has none; ships "
    .. "built later are safe). On every Plentiful Harvest you receive 1 gold.",
  on_build = function(g, p)
    local o = other(p)
    if trade_ships(g, o) == 0 then
      g:log("pirate ship: " .. name(g, o) .. " has no trade ship")
      return
    end
    R.resolve(g, { R.choice(o, "sink") })
  end })

-- City expansions (red: only on the 4 building sites of a city).
local function city_expansion(def)
  def.type, def.placement, def.copies = "building", "city", 0
  return R.expansion(def)
end

city_expansion({ name = "merchant_guild", one_x = true, cost = { brick = 2, grain = 1, wool = 2 }, vp = 1,
  commerce = 2, text = "1 point, 2 commerce; needed for the Trade Master and the Staple House (1x, face-up stack)",
  index = "Merchant Guild: 1 per principality. Buildings that needed it stay when it is removed." })
city_expansion({ name = "moneylender", one_x = true, cost = { brick = 1, lumber = 2, ore = 2 }, vp = 1,
  text = "1 point; on a trade event you take 2 resources instead of 1 while you hold the trade advantage",
  index = "Moneylender: may be built without the trade advantage. With only 1 resource the opponent gives "
    .. "that one; you take only resources you can store." })
city_expansion({ name = "harbor", cost = { brick = 1, wool = 1, ore = 1 }, commerce = 1,
  text = "1 commerce; 1 point while you have 3 trade ships",
  index = "Harbor: may be built with fewer than 3 trade ships; the point comes and goes with the third ship." })
city_expansion({ name = "trading_base", cost = { brick = 1, grain = 2, wool = 2 }, vp = 1, commerce = 1,
  text = "1 point, 1 commerce; your Harbor and your Marketplace are worth 2 commerce each",
  index = "Trading Base: may be built without a Harbor or Marketplace; they count 2 once you have them." })
city_expansion({ name = "mint", cost = { brick = 1, lumber = 2, ore = 2 }, vp = 1,
  text = "1 point; once in each of your turns trade 1 gold for 1 other resource (`mint ore`)",
  index = "Mint: with both Mints, each trades once per turn." })
city_expansion({ name = "salt_silo", cost = { brick = 1, wool = 2, gold = 2 }, vp = 1,
  text = "1 point; each of your trade ships is worth 2 commerce",
  index = "Salt Silo: may be built without trade ships; only its point counts until you have one." })
city_expansion({ name = "staple_house", cost = { brick = 2, wool = 1, ore = 2 }, vp = 1,
  text = "1 point; when built, take any 2 resources; needs a Merchant Guild",
  index = "Staple House: the whole cost is paid first, then the 2 resources are taken.",
  requires = function(g, p)
    if has(g, p, "merchant_guild") then return true end
    return false, "the Staple House needs a Merchant Guild in your principality"
  end,
  on_build = function(g, p)
    R.resolve(g, { R.choice(p, "gain", { left = 2, reason = "staple house" }) })
  end })

-- Action cards (their rules are the actions below).
R.card({ name = "gudrun", type = "action", text = "with a Pirate Ship: your opponent gives you up to 2 gold per Pirate Ship",
  index = "Gudrun, Terror of the Seas: needs your Pirate Ship and gold of the opponent's. At most all their "
    .. "gold and what you can store; they choose the regions." })
R.card({ name = "merchant", type = "action", text = "with a city or 3 commerce: take 1 or 2 resources of your "
  .. "choice from your opponent, then give them 1 of yours",
  index = "Merchant: the opponent chooses the regions; you give back any 1 resource, possibly one just "
    .. "received. Not playable if the opponent has no resource." })
R.card({ name = "reiner", type = "action", text = "before rolling: the event die shows celebration, and you "
  .. "receive at least 1 resource from it",
  index = "Reiner the Herald: even when the opponent has more skill points you receive 1 resource." })
R.card({ name = "trade_master", type = "action", text = "with a Merchant Guild: take 1 or 2 resources of your "
  .. "choice from your opponent",
  index = "Trade Master: the opponent chooses the regions. Not playable if the opponent has no resource." })

R.card({ name = "gift_for_the_prince", type = "event", copies = 0 })

-- Special Rules 1: two theme stacks of 11, the 2 Merchant Guilds face up, 3 events.
R.theme_set {
  name = "gold",
  events = { gift_for_the_prince = 1, trade_ships_race = 1, traveling_merchant = 1 },
  faceup = { merchant_guild = 2 },
  draw = {
    brigands = 1, goldsmith = 1, gudrun = 1, merchant = 2, reiner = 1, trade_master = 2,
    gold_cache = 1, storehouse = 1, toll_bridge = 1, large_trade_ship = 1, pirate_ship = 2,
    harbor = 1, moneylender = 1, mint = 2, salt_silo = 1, staple_house = 2, trading_base = 1,
  },
  -- rivals_cards.csv, half_moon_copies (The Duel of the Princes). Which Brigands copy has
  -- the half moon is unsure there; this one (the Era of Turmoil's copy stays in the Duel).
  half_moon = {
    brigands = 1, reiner = 1, trade_master = 1, goldsmith = 1, storehouse = 1, toll_bridge = 1,
    large_trade_ship = 1, merchant_guild = 1, harbor = 1, trading_base = 1, mint = 1, staple_house = 1,
    gift_for_the_prince = 1, trade_ships_race = 1, traveling_merchant = 1,
  },
}

-- Points: Harbor, Salt Silo, Trading Base ------------------------------------------------------

filter("tally", "rivals_gold.points", function(g, t, p)
  local ships = trade_ships(g, p)
  -- Harbor: 1 point while you have 3 trade ships.
  if ships >= 3 then t.vp = t.vp + g:grid_count(p, R.P, "harbor") end
  -- Salt Silo: each trade ship 2 commerce instead of 1.
  if has(g, p, "salt_silo") then t.commerce = t.commerce + ships end
  -- Trading Base: Harbor and Marketplace 2 commerce each instead of 1.
  if has(g, p, "trading_base") then
    t.commerce = t.commerce + g:grid_count(p, R.P, "harbor") + g:grid_count(p, R.P, "marketplace")
  end
  return t
end)

-- Action cards ----------------------------------------------------------------------------------

local card_action = R.card_action
-- Gudrun, the Merchant and the Trade Master make the opponent `yield` resources.
R.use("yield")

-- Gudrun: up to 2 gold per Pirate Ship, at most the opponent's gold and what you can store.
local function gudrun_most(g, p)
  return math.min(2 * g:grid_count(p, R.P, "pirate_ship"), R.stock(g, other(p)).gold, R.room(g, p, "gold"))
end

CARDS.gudrun.requires = function(g, p)
  if not has(g, p, "pirate_ship") then return false, "Gudrun needs a Pirate Ship in your principality" end
  if R.stock(g, other(p)).gold == 0 then return false, name(g, other(p)) .. " has no gold" end
  return true
end

card_action("gudrun", {
  name = "play_gudrun",
  syntax = "play gudrun <int>",
  help = "play Gudrun, Terror of the Seas (with a Pirate Ship): your opponent gives you that much gold (up to 2 per Pirate Ship)",
  options = function(g, p)
    local out = {}
    for n = 1, gudrun_most(g, p) do out[#out + 1] = n end
    return out
  end,
  legal = function(g, p, n)
    local most = gudrun_most(g, p)
    if n < 1 or n > most then return deny("you may request 1 to " .. most .. " gold") end
    return true
  end,
  apply = function(g, p, n)
    R.discard_card(g, p, "gudrun")
    g:log(name(g, p) .. " plays Gudrun: " .. name(g, other(p)) .. " gives " .. n .. " gold")
    R.resolve(g, R.demand(g, p, { gold = n }))
  end,
})

-- Merchant and Trade Master: take 1 or 2 resources of your choice (the Merchant gives 1 back).
local function opponent_has_any(g, p)
  for _, n in pairs(R.stock(g, other(p))) do
    if n > 0 then return true end
  end
  return false, name(g, other(p)) .. " has no resources"
end

CARDS.merchant.requires = function(g, p)
  local city = false
  for _, t in ipairs(R.towns(g, p)) do city = city or t.city end
  if not city and R.tally(g, p).commerce < 3 then return false, "the Merchant needs a city or 3 commerce points" end
  return opponent_has_any(g, p)
end

CARDS.trade_master.requires = function(g, p)
  if not has(g, p, "merchant_guild") then return false, "the Trade Master needs a Merchant Guild" end
  return opponent_has_any(g, p)
end

for _, kind in ipairs({ "merchant", "trade_master" }) do
  card_action(kind, {
    name = "play_" .. kind,
    syntax = "play " .. kind .. " <cards>",
    help = "play the " .. title(kind) .. ": name 1 or 2 resources your opponent must give you"
      .. (kind == "merchant" and ", then give them 1 of yours" or ""),
    options = R.demands,
    legal = R.can_demand,
    apply = function(g, p, want)
      R.discard_card(g, p, kind)
      g:log(name(g, p) .. " plays the " .. title(kind) .. ": " .. name(g, other(p)) .. " gives " .. R.cards_text(want))
      local choices = R.demand(g, p, want)
      if kind == "merchant" then choices[#choices + 1] = R.choice(p, "yield", { reason = "merchant" }) end
      R.resolve(g, choices)
    end,
  })
end

-- Reiner the Herald: before rolling, the event die shows celebration; you receive at least 1.
action {
  name = "play_reiner",
  phases = { "roll" },
  syntax = "play reiner",
  help = "play Reiner the Herald before rolling: the event die shows celebration, and you receive at least 1 resource",
  when = function(g, p) return R.my_turn(g, p) and R.in_hand(g, p, "reiner") end,
  apply = function(g, p)
    R.discard_card(g, p, "reiner")
    g:set("reiner", p)
    g:log(name(g, p) .. " plays Reiner the Herald: the event die shows a celebration")
    R.start_resolution(g, g:roll(1)[1], 3)
  end,
}

local celebration = R.die.celebration
R.die.celebration = function(g)
  local out = celebration(g) or {}
  local herald = g:get("reiner")
  g:set("reiner", nil)
  if herald then
    for _, c in ipairs(out) do
      if c.seat == herald then return out end
    end
    g:log("reiner the herald: " .. name(g, herald) .. " receives a resource too")
    table.insert(out, 1, R.choice(herald, "gain", { reason = "reiner the herald" }))
  end
  return out
end

-- Mint: once per turn per Mint, 1 gold for 1 other resource; the owner names where the gold
-- comes from (a gold field or the Gold Cache: `spend`) when that is open.
local function mints_left(g, p)
  local used = g:pget(p, "mint_turn") == g:turn() and (g:pget(p, "mint_used") or 0) or 0
  return g:grid_count(p, R.P, "mint") - used
end

action {
  name = "mint",
  phases = { "action" },
  syntax = "mint <resource>",
  help = "Mint: trade 1 gold for 1 other resource (once per turn for each Mint)",
  when = function(g, p) return R.my_turn(g, p) and mints_left(g, p) > 0 end,
  options = function(g, p)
    if R.stock(g, p).gold == 0 then return {} end
    local out = {}
    for _, r in ipairs(R.RESOURCES) do
      if r ~= "gold" then out[#out + 1] = r end
    end
    return out
  end,
  legal = function(g, p, r)
    if r == "gold" then return deny("the Mint trades gold for another resource") end
    if R.stock(g, p).gold == 0 then return deny("the Mint takes 1 gold, and you have none") end
    return true
  end,
  apply = function(g, p, r)
    local used = g:pget(p, "mint_turn") == g:turn() and (g:pget(p, "mint_used") or 0) or 0
    g:pset(p, "mint_turn", g:turn())
    g:pset(p, "mint_used", used + 1)
    local steps = R.spend_choices(g, p, { gold = 1 }, "mint")
    steps[#steps + 1] = { t = "receive", seat = p, get = { [r] = 1 }, reason = "mint", note = " for 1 gold" }
    R.resolve(g, steps)
  end,
}

-- Pirate Ship: the opponent removes a trade ship of their choice (to the discard pile).
local function own_trade_ships(g, p)
  local out = {}
  for _, s in ipairs(R.expansions(g, p, "ship")) do out[#out + 1] = s.label end
  return out
end

R.possible.sink = function(g, task) return #own_trade_ships(g, task.seat) > 0 end

action {
  name = "sink",
  phases = { "choose" },
  syntax = "sink <slot>",
  help = "pirate ship: remove one of your trade ships (your choice)",
  when = function(g, p) return R.choosing(g, p, { sink = true }) ~= nil end,
  options = own_trade_ships,
  legal = select(2, R.one_of(own_trade_ships, "name one of your trade ships")),
  apply = function(g, p, lbl)
    local r, c = R.own(g, p, lbl)
    local kind = g:take_card(p, R.P, r, c, nil, "discard")
    g:log("pirate ship: " .. name(g, p) .. "'s " .. title(kind) .. " on " .. lbl .. " is sunk")
    R.choice_done(g)
  end,
}

-- Pirate Ship: 1 gold on every Plentiful Harvest.
sequence("harvest", "rivals_gold.pirate_ship", function(g)
  for _, p in ipairs(R.order_from(g, g:current())) do
    for _ = 1, g:grid_count(p, R.P, "pirate_ship") do
      g:log("pirate ship: " .. R.gain_text(g, p, "gold", 1, R.gain(g, p, "gold", 1)))
    end
  end
end)

-- Moneylender: on a trade event, the trade advantage with a Moneylender takes 2, and only
-- resources it can store.
local trade = R.die.trade
R.die.trade = function(g)
  local h = g:get("trade_token")
  if h and has(g, h, "moneylender") then
    return { R.choice(h, "steal", { left = 2, storable = true }) }
  end
  return trade(g)
end

-- Events ------------------------------------------------------------------------------------------

-- Gift for the Prince: each player receives 1 gold per unit with at least 1 strength point
-- (rivals_cards.csv), as far as the gold fields and Gold Cache have room.
R.events.gift_for_the_prince = function(g)
  for _, p in ipairs(R.order_from(g, g:current())) do
    local n = 0
    for _, s in ipairs(R.placed(g, p)) do
      if s.def and R.expansion_types[s.def.type] and (s.def.strength or 0) >= 1 then n = n + 1 end
    end
    g:log("gift for the prince: " .. R.gain_text(g, p, "gold", n, R.gain(g, p, "gold", n)))
  end
end
