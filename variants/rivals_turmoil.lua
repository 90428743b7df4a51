-- Rivals for Catan, Theme Game "The Era of Turmoil" (../shared/rules/004: "PLAYING THE
-- THEME GAMES", Special Rules 2, and the card index "THE ERA OF TURMOIL"). The general Theme
-- Game rules are rivals_theme.lua; this file is the set: its 28 cards (costs and points from
-- ../shared/reference/rivals_cards.csv) and their rules.
--
--   action cards     Archer (2), Arsonist (2), Traitor (2) with a Hedge Tavern; Voyage of
--                    Plunder (2) and Brigands with the strength advantage; Sebastian the
--                    Itinerant Preacher, played when Riots, a Feud or Fraternal Feuds strike
--   settlement/city  Drill Ground, Lookout Tower; heroes Carl Forkbeard, Heinrich the
--                    Sentinel, Irmgard Keeper of the Light
--   city expansions  Chapel (1-2-3 and 4-5-6), Fairgrounds, Fire Brigade (2), Hedge Tavern
--                    (2, the face-up stack), Large Festival Hall, Tithe Barn
--   events           Riots (2), and a Feud and Fraternal Feuds more
--
-- The attacks (Archer, Arsonist, Traitor) are answered by a defence roll when the victim has
-- a Lookout Tower or Heinrich; a card that must leave a principality is chosen by its owner
-- (`remove L7 under 4`), and Irmgard pays 1 resource for each. Where the card index leaves
-- a detail open it is said at the card and in docs/rivals.md.

variant {
  extends = "rivals_theme",
  description = "Rivals for Catan: the Theme Game \"The Era of Turmoil\" (2 players, 12 points): the "
    .. "Basic Set with the 28 cards of the Era of Turmoil.",
  cards = {
    expansion = {
      "drill_ground", "lookout_tower", "carl_forkbeard", "heinrich", "irmgard", "chapel_123", "chapel_456",
      "fairgrounds", "fire_brigade", "hedge_tavern", "tithe_barn", "large_festival_hall",
    },
    action = { "archer", "arsonist", "traitor", "voyage_of_plunder", "sebastian" },
    event = { "riots" },
  },
}

local R = rivals
local CARDS, P = R.cards, R.P
local name, other, title, has = R.name, R.other, R.title, R.has

-- Cards ---------------------------------------------------------------------------------------

-- Settlement/city expansions (green) and heroes.
R.expansion({ name = "drill_ground", type = "building", one_x = true, copies = 0, cost = { brick = 1, ore = 1 },
  strength = 1, text = "1 strength; each hero you build costs 1 resource of your choice less (`build inga L2 saving wool`) (1x)",
  index = "Drill Ground: only heroes cost less, no other unit." })
R.expansion({ name = "lookout_tower", type = "building", copies = 0, cost = { grain = 1, lumber = 1 }, strength = 1,
  text = "1 strength; when your opponent plays an Archer, Arsonist or Traitor, a roll of 1-2 stops it",
  index = "Lookout Tower: with Heinrich the Sentinel a 1-5 stops the attack; the die is rolled once." })
R.expansion({ name = "carl_forkbeard", type = "hero", copies = 0, cost = { grain = 1, wool = 2, ore = 1 },
  strength = 5, skill = 0, text = "a hero without skill", index = "Carl Forkbeard: a common hero." })
R.expansion({ name = "heinrich", type = "hero", copies = 0, cost = { grain = 1, wool = 1, ore = 1 }, strength = 2,
  skill = 0, text = "when your opponent plays an Archer, Arsonist or Traitor, a roll of 3-5 stops it (1-5 with a Lookout Tower)",
  index = "Heinrich the Sentinel: with the Lookout Tower a 1-5 stops the attack; the die is rolled once." })
R.expansion({ name = "irmgard", type = "hero", copies = 0, cost = { grain = 1, gold = 1 }, strength = 0, skill = 2,
  text = "whenever an event or your opponent's action card makes you remove a card of your principality, take 1 resource of your choice",
  index = "Irmgard, Keeper of the Light: nothing when Irmgard herself is removed." })

local function city_expansion(def)
  def.type, def.placement, def.copies = "building", "city", 0
  return R.expansion(def)
end

city_expansion({ name = "chapel_123", cost = { brick = 1, grain = 1, ore = 2 }, vp = 1,
  text = "1 point; Riots do not strike you when the production die shows 1, 2 or 3",
  index = "Chapel: the production die of the roll counts (no new roll). With both Chapels Riots never strike you." })
city_expansion({ name = "chapel_456", cost = { brick = 1, grain = 1, ore = 2 }, vp = 1,
  text = "1 point; Riots do not strike you when the production die shows 4, 5 or 6",
  index = "Chapel: the production die of the roll counts (no new roll). With both Chapels Riots never strike you." })
city_expansion({ name = "fairgrounds", cost = { grain = 1, wool = 1, lumber = 2 }, vp = 1,
  text = "1 point; when built, with more skill points than your opponent, take any 2 resources",
  index = "Fairgrounds: the whole cost is paid first; without the most skill points it gives nothing.",
  on_build = function(g, p)
    local mine, theirs = R.tally(g, p).skill, R.tally(g, other(p)).skill
    if mine <= theirs then
      g:log("fairgrounds: " .. name(g, p) .. " has no more skill points than " .. name(g, other(p)))
      return
    end
    R.resolve(g, { R.choice(p, "gain", { left = 2, reason = "fairgrounds" }) })
  end })
city_expansion({ name = "fire_brigade", cost = { brick = 1, wool = 2, ore = 1 }, vp = 1,
  text = "1 point; the buildings of this city, the Fire Brigade too, are safe from the Arsonist",
  index = "Fire Brigade: protects every settlement/city expansion and city expansion of its city." })
city_expansion({ name = "hedge_tavern", one_x = true, cost = { grain = 1, wool = 1, gold = 2 }, vp = 1,
  text = "1 point; needed for the Archer, the Arsonist and the Traitor (1x, face-up stack)",
  index = "Hedge Tavern: 1 per principality." })
city_expansion({ name = "large_festival_hall", cost = { brick = 2, grain = 3, ore = 3 }, vp = 2,
  text = "2 points", index = "Large Festival Hall: worth 2 victory points." })
city_expansion({ name = "tithe_barn", cost = { brick = 1, lumber = 2, ore = 1 }, vp = 1,
  text = "1 point; when built, choose wool or grain (`tithe wool`): 1 of it per hero of yours",
  index = "Tithe Barn: 3 heroes give 3 wool or 3 grain; what your regions cannot store is lost.",
  on_build = function(g, p)
    local n = #R.expansions(g, p, "hero")
    if n == 0 then
      g:log("tithe barn: " .. name(g, p) .. " has no hero")
      return
    end
    R.resolve(g, { R.choice(p, "tithe", { heroes = n }) })
  end })

-- The requirement of the Archer, Arsonist and Traitor: your Hedge Tavern, and the opponent
-- able to suffer the attack (`target(g, opponent)` true, else `missing` is said).
local function tavern_attack(target, missing)
  return function(g, p)
    if not has(g, p, "hedge_tavern") then return false, "you need a Hedge Tavern in your principality" end
    if not target(g, other(p)) then return false, name(g, other(p)) .. " has " .. missing end
    return true
  end
end

-- Units with at least 1 strength point (what the Archer may hit).
local function strong_units(g, p)
  local out = {}
  for _, s in ipairs(R.expansions(g, p)) do
    if s.def.type ~= "building" and s.def.type ~= "site" and (s.def.strength or 0) >= 1 then out[#out + 1] = s.label end
  end
  return out
end

-- The buildings a Fire Brigade does not protect (what the Arsonist may hit): a Fire Brigade
-- protects every building on the sites of its city's column.
local function unprotected_buildings(g, p)
  local safe = {}
  for _, rc in ipairs(g:grid_find(p, P, "fire_brigade")) do safe[rc.col] = true end
  local out = {}
  for _, s in ipairs(R.expansions(g, p, "building")) do
    if not safe[s.col] then out[#out + 1] = s.label end
  end
  return out
end

-- Whether p can store any resource the opponent has (the Voyage of Plunder's requirement).
local function storable_loot(g, p)
  for r, n in pairs(R.stock(g, other(p))) do
    if n > 0 and R.room(g, p, r) > 0 then return true end
  end
  return false
end

R.card({ name = "archer", type = "action", copies = 0,
  text = "with a Hedge Tavern: your opponent puts one of their units with strength under a draw stack",
  index = "Archer: not playable without your Hedge Tavern or when the opponent has no unit with strength. "
    .. "The opponent chooses the unit. A Lookout Tower or Heinrich may stop it.",
  requires = tavern_attack(function(g, o) return #strong_units(g, o) > 0 end, "no unit with a strength point") })
R.card({ name = "arsonist", type = "action", copies = 0,
  text = "with a Hedge Tavern: name a building of your opponent's; they put it under a draw stack",
  index = "Arsonist: not playable without your Hedge Tavern or when the opponent has no unprotected building. "
    .. "A Fire Brigade protects its city; a Lookout Tower or Heinrich may stop it.",
  requires = tavern_attack(function(g, o) return #unprotected_buildings(g, o) > 0 end,
    "no building the Arsonist may burn") })
R.card({ name = "traitor", type = "action", copies = 0,
  text = "with a Hedge Tavern: look at your opponent's hand and take 1 of its cards",
  index = "Traitor: not playable without your Hedge Tavern or when the opponent's hand is empty. You may play "
    .. "or build the card at once, or take none (`skip`). The opponent replenishes at the end of their turn.",
  requires = tavern_attack(function(g, o) return g:count(o, "hand") > 0 end, "no cards in hand") })
R.card({ name = "voyage_of_plunder", type = "action", copies = 0,
  text = "with the strength advantage: take 1 resource of your choice from your opponent, 2 when they have more points",
  index = "Voyage of Plunder: not playable without the strength advantage or when you can store none of the "
    .. "opponent's resources.",
  requires = function(g, p)
    if g:get("hero") ~= p then return false, "the Voyage of Plunder needs the strength advantage" end
    if not storable_loot(g, p) then
      return false, name(g, other(p)) .. " has no resource you can store"
    end
    return true
  end })
R.card({ name = "sebastian", type = "action", copies = 0,
  text = "when Riots, a Feud or Fraternal Feuds strike you (even in your opponent's turn): `play sebastian`, the event spares you",
  index = "Sebastian the Itinerant Preacher: only when the event is revealed; not against Riots your Chapel "
    .. "already stops. Against Riots you may pay gold instead." })

R.card({ name = "riots", type = "event", copies = 0 })

-- Special Rules 2: two theme stacks of 11, the 2 Hedge Taverns face up, 4 events.
R.theme_set {
  name = "turmoil",
  events = { riots = 2, feud = 1, fraternal_feuds = 1 },
  faceup = { hedge_tavern = 2 },
  draw = {
    archer = 2, arsonist = 2, traitor = 2, voyage_of_plunder = 2, sebastian = 1, brigands = 1,
    drill_ground = 1, lookout_tower = 1, carl_forkbeard = 1, heinrich = 1, irmgard = 1,
    chapel_123 = 1, chapel_456 = 1, fairgrounds = 1, fire_brigade = 2, tithe_barn = 1, large_festival_hall = 1,
  },
  -- rivals_cards.csv, half_moon_copies (The Duel of the Princes).
  half_moon = {
    archer = 1, arsonist = 1, traitor = 1, voyage_of_plunder = 1, sebastian = 1, drill_ground = 1,
    carl_forkbeard = 1, irmgard = 1, fairgrounds = 1, fire_brigade = 1, hedge_tavern = 1, tithe_barn = 1,
    riots = 1, feud = 1, fraternal_feuds = 1,
  },
}

-- Drill Ground: heroes for 1 resource less (rivals_theme's `build ... saving <resource>`).
R.add_saving(function(g, p, kind)
  return CARDS[kind].type == "hero" and has(g, p, "drill_ground")
end)

-- Defence: Lookout Tower and Heinrich the Sentinel --------------------------------------------

-- The production die rolled once by the victim p of an attack; true when it stops it.
local function defended(g, p, attack)
  local tower, heinrich = has(g, p, "lookout_tower"), has(g, p, "heinrich")
  if not tower and not heinrich then return false end
  local roll = g:roll(1)[1]
  local stop = (tower and roll <= 2) or (heinrich and roll >= 3 and roll <= 5)
  local by = (tower and heinrich) and "Lookout Tower and Heinrich (1-5)"
    or (tower and "Lookout Tower (1-2)" or "Heinrich the Sentinel (3-5)")
  g:log(name(g, p) .. " rolls " .. roll .. " for the " .. by .. ": the " .. title(attack)
    .. (stop and " is stopped" or " strikes"))
  return stop
end

-- Attacks ---------------------------------------------------------------------------------------

R.remove_choices.archer = true
R.remove_choices.arsonist = true
R.remove_choices.riots = true

R.card_action("archer", {
  name = "play_archer",
  syntax = "play archer",
  help = "play the Archer (Hedge Tavern): your opponent puts one of their units with strength under a draw stack",
  apply = function(g, p)
    R.discard_card(g, p, "archer")
    g:log(name(g, p) .. " plays the Archer")
    local o = other(p)
    if defended(g, o, "archer") then return end
    R.resolve(g, { R.choice(o, "archer", { named = strong_units(g, o), reason = "archer" }) })
  end,
})

-- Arsonist: the target is named with the card; the defence roll comes after. The card index
-- lets the player wait for the roll before naming it, which changes nothing they could want:
-- the roll only stops the attack or not.
R.card_action("arsonist", {
  name = "play_arsonist",
  syntax = "play arsonist <slot>",
  help = "play the Arsonist (Hedge Tavern): name a building of your opponent's; they put it under a draw stack",
  options = function(g, p) return unprotected_buildings(g, other(p)) end,
  legal = function(g, p, lbl)
    if not R.contains(unprotected_buildings(g, other(p)), lbl) then
      return deny("name a building of " .. name(g, other(p)) .. "'s without a Fire Brigade in its city: "
        .. table.concat(unprotected_buildings(g, other(p)), ", "))
    end
    return true
  end,
  apply = function(g, p, lbl)
    R.discard_card(g, p, "arsonist")
    g:log(name(g, p) .. " plays the Arsonist on " .. lbl)
    local o = other(p)
    if defended(g, o, "arsonist") then return end
    R.resolve(g, { R.choice(o, "arsonist", { named = { lbl }, reason = "arsonist" }) })
  end,
})

R.card_action("traitor", {
  name = "play_traitor",
  syntax = "play traitor",
  help = "play the Traitor (Hedge Tavern): look at your opponent's hand and take 1 of its cards (or none: `skip`)",
  apply = function(g, p)
    R.discard_card(g, p, "traitor")
    g:log(name(g, p) .. " plays the Traitor")
    local o = other(p)
    if defended(g, o, "traitor") then return end
    local list = {}
    for k, c in pairs(g:cards(o, "hand")) do list[#list + 1] = c .. " " .. title(k) end
    table.sort(list)
    g:tell({ p, o }, name(g, o) .. " shows their hand: " .. table.concat(list, ", "))
    R.resolve(g, { R.choice(p, "traitor", { optional = true }) })
  end,
})

R.possible.traitor = function(g, task) return g:count(other(task.seat), "hand") > 0 end

local function seizable(g, p)
  local out = {}
  for k in pairs(g:cards(other(p), "hand")) do out[#out + 1] = k end
  table.sort(out)
  return out
end

action {
  name = "seize",
  phases = { "choose" },
  syntax = "seize <word>",
  help = "traitor: take this card of your opponent's hand into yours",
  when = function(g, p) return R.choosing(g, p, { traitor = true }) ~= nil end,
  options = seizable,
  legal = function(g, p, kind)
    kind = kind:lower()
    if g:count(other(p), "hand", kind) == 0 then return deny(name(g, other(p)) .. " holds no " .. kind) end
    return true
  end,
  apply = function(g, p, kind)
    kind = kind:lower()
    g:move(other(p), "hand", p, "hand", kind)
    g:log("traitor: " .. name(g, p) .. " takes " .. title(kind) .. " from " .. name(g, other(p)) .. "'s hand")
    R.choice_done(g)
  end,
}

R.card_action("voyage_of_plunder", {
  name = "play_voyage_of_plunder",
  syntax = "play voyage_of_plunder",
  help = "play the Voyage of Plunder (strength advantage): take 1 resource of your choice from your opponent, 2 if they have more points",
  apply = function(g, p)
    R.discard_card(g, p, "voyage_of_plunder")
    local n = R.points(g, other(p)) > R.points(g, p) and 2 or 1
    g:log(name(g, p) .. " plays the Voyage of Plunder: " .. n .. " resource(s) of " .. name(g, other(p)) .. "'s")
    R.resolve(g, { R.choice(p, "steal", { left = n, storable = true }) })
  end,
})

-- Irmgard, Keeper of the Light: a card removed by an event or the opponent's action card
-- (every `remove ... under` choice: Feud, Archer, Arsonist, Riots) pays 1 resource of choice,
-- unless it is Irmgard.
sequence("forced_removal", "rivals_turmoil.irmgard", function(g, p, kind)
  if kind == "irmgard" or not has(g, p, "irmgard") then return end
  local q = g:get("queue")
  table.insert(q, 2, R.choice(p, "gain", { reason = "irmgard" }))
  g:set("queue", q)
end)

-- Tithe Barn: wool or grain, 1 per hero.
action {
  name = "tithe",
  phases = { "choose" },
  syntax = "tithe <resource>",
  help = "tithe barn: receive wool or grain, 1 per hero of yours",
  when = function(g, p) return R.choosing(g, p, { tithe = true }) ~= nil end,
  options = function() return { "grain", "wool" } end,
  legal = function(g, p, r)
    if r ~= "wool" and r ~= "grain" then return deny("the Tithe Barn gives wool or grain") end
    return true
  end,
  apply = function(g, p, r)
    local n = R.head(g).heroes
    g:log("tithe barn: " .. R.gain_text(g, p, r, n, R.gain(g, p, r, n)))
    R.choice_done(g)
  end,
}

-- Events: Riots, and Sebastian against Riots, Feud and Fraternal Feuds ---------------------------

-- Units with strength or commerce points (heroes, trade ships, other units): what Riots count.
local function riot_units(g, p)
  local out = {}
  for _, s in ipairs(R.expansions(g, p)) do
    local d = s.def
    if d.type ~= "building" and d.type ~= "site" and ((d.strength or 0) > 0 or (d.commerce or 0) > 0) then
      out[#out + 1] = s.label
    end
  end
  return out
end

-- A Chapel protects against Riots by the production die of this roll.
local function chapel_protects(g, p)
  local dice = g:get("dice")
  local n = dice and dice.production or 0
  return (n >= 1 and n <= 3 and has(g, p, "chapel_123")) or (n >= 4 and has(g, p, "chapel_456"))
end

-- Who an event strikes, for Sebastian: the Feud and Fraternal Feuds strike the opponent of
-- the strength advantage (when they have a building, or cards), Riots everyone with units
-- and no protecting Chapel.
local VICTIMS = {
  feud = function(g)
    local h = g:get("hero")
    if h and #R.expansions(g, other(h), "building") > 0 then return { other(h) } end
    return {}
  end,
  fraternal_feuds = function(g)
    local h = g:get("hero")
    if h and g:count(other(h), "hand") > 0 then return { other(h) } end
    return {}
  end,
  riots = function(g)
    local out = {}
    for _, p in ipairs(R.order_from(g, g:current())) do
      if #riot_units(g, p) > 0 and not chapel_protects(g, p) then out[#out + 1] = p end
    end
    return out
  end,
}

-- The seats Sebastian spares from the event being resolved ("spared": { seat1 = true }).
local function spared(g, p)
  local s = g:get("spared") or {}
  return s["seat" .. p] == true
end

R.events.riots = function(g)
  local out = {}
  for _, p in ipairs(R.order_from(g, g:current())) do
    local units = riot_units(g, p)
    if #units == 0 then
      g:log("riots: " .. name(g, p) .. " has no unit with strength or commerce")
    elseif chapel_protects(g, p) then
      g:log("riots: " .. name(g, p) .. "'s Chapel protects them")
    elseif spared(g, p) then
      g:log("riots: Sebastian spares " .. name(g, p))
    else
      local gold = #units <= 2 and 1 or 2
      g:log("riots: " .. name(g, p) .. " pays " .. gold .. " gold or puts a unit under a draw stack")
      out[#out + 1] = R.choice(p, "riots", { named = units, gold = gold, reason = "riots" })
    end
  end
  return out
end

action {
  name = "pay_gold",
  phases = { "choose" },
  syntax = "pay gold",
  help = "riots: pay the gold (1 for 1-2 units, 2 for more) instead of losing a unit",
  when = function(g, p) return R.choosing(g, p, { riots = true }) ~= nil end,
  legal = function(g, p)
    local n = R.head(g).gold
    if R.stock(g, p).gold < n then return deny("you have less than " .. n .. " gold") end
    return true
  end,
  apply = function(g, p)
    local n = R.head(g).gold
    R.pay(g, p, { gold = n })
    g:log("riots: " .. name(g, p) .. " pays " .. n .. " gold")
    R.choice_done(g)
  end,
}

-- Sebastian: an event with a victim holding Sebastian first asks them (`play sebastian` or
-- `skip`), then strikes everyone it did not spare.
for kind, victims in pairs(VICTIMS) do
  local strike = R.events[kind]
  R.events[kind] = function(g)
    local out = {}
    for _, v in ipairs(victims(g)) do
      if R.in_hand(g, v, "sebastian") then out[#out + 1] = R.choice(v, "sebastian", { optional = true }) end
    end
    if #out == 0 then return strike(g) end
    out[#out + 1] = { t = "turmoil_strike", card = kind }
    return out
  end
  R.tasks["strike_" .. kind] = function(g)
    local victim = victims(g)[1]
    if kind ~= "riots" and victim and spared(g, victim) then
      g:log(title(kind) .. ": Sebastian spares " .. name(g, victim))
      return {}
    end
    return strike(g)
  end
end

R.tasks.turmoil_strike = function(g, task)
  local more = R.tasks["strike_" .. task.card](g) or {}
  more[#more + 1] = { t = "turmoil_spared_end" }
  return more
end

R.tasks.turmoil_spared_end = function(g) g:set("spared", nil) end

action {
  name = "play_sebastian",
  phases = { "choose" },
  syntax = "play sebastian",
  help = "play Sebastian the Itinerant Preacher: the event just revealed spares you",
  when = function(g, p) return R.choosing(g, p, { sebastian = true }) ~= nil and R.in_hand(g, p, "sebastian") end,
  apply = function(g, p)
    R.discard_card(g, p, "sebastian")
    local s = g:get("spared") or {}
    s["seat" .. p] = true
    g:set("spared", s)
    g:log(name(g, p) .. " plays Sebastian the Itinerant Preacher")
    R.choice_done(g)
  end,
}
