-- Rivals for Catan, Theme Game "The Era of Progress" (../shared/rules/004: "PLAYING THE
-- THEME GAMES", Special Rules 3, and the card index "THE ERA OF PROGRESS"). The general
-- Theme Game rules are rivals_theme.lua; this file is the set: its 31 cards (costs and
-- points from ../shared/reference/rivals_cards.csv) and their rules.
--
--   action cards     Benjamin the Traveling Scholar, Doctor (2), Guido the Ambassador,
--                    Gustav the Librarian, Mineral Mining (2), Three-Field System (2), and a
--                    Brigitta and a Relocation more
--   unit             Chief Cannoneer (2), not a hero
--   city expansions  Bath House (3), Building Crane, Library (2), Parliament, Pharmacy (2),
--                    Town Hall (2, on the Parish Hall), University (2, the face-up stack)
--   events           Plague (3), and 2 Inventions more
--
-- Where the card index leaves a detail open it is said at the card and in docs/rivals.md.

variant {
  extends = "rivals_theme",
  description = "Rivals for Catan: the Theme Game \"The Era of Progress\" (2 players, 12 points): the "
    .. "Basic Set with the 31 cards of the Era of Progress.",
  cards = {
    expansion = {
      "chief_cannoneer", "bath_house", "building_crane", "library", "parliament", "pharmacy", "town_hall",
      "university",
    },
    action = { "benjamin", "doctor", "guido", "gustav", "mineral_mining", "three_field_system" },
    event = { "plague" },
  },
  -- A card taken from a stack or from the discard pile (only its top card is seen) stays
  -- secret.
  secret_actions = { "library_take", "retrieve" },
}

local R = rivals
local CARDS, P = R.cards, R.P
local name, other, title, has = R.name, R.other, R.title, R.has

local function university(g, p)
  if has(g, p, "university") then return true end
  return false, "you need a University in your principality"
end

-- The 4 regions around the city (or settlement) of column c.
local function town_regions(g, p, c)
  local out = {}
  for _, rc in ipairs({ { 2, c - 1 }, { 2, c + 1 }, { 4, c - 1 }, { 4, c + 1 } }) do
    local k = R.top(g, p, rc[1], rc[2])
    if k and CARDS[k].type == "region" then out[#out + 1] = rc end
  end
  return out
end

-- Cards ---------------------------------------------------------------------------------------

R.expansion({ name = "chief_cannoneer", type = "unit", copies = 0, cost = { lumber = 1, ore = 1 }, strength = 4,
  text = "a unit (not a hero) with 4 strength; needs a University",
  index = "Chief Cannoneer: not a hero, so you may have both; cards for heroes do not apply, cards for units do.",
  requires = university })

local function city_expansion(def)
  def.type, def.placement, def.copies = "building", "city", 0
  return R.expansion(def)
end

city_expansion({ name = "bath_house", cost = { brick = 2, wool = 1, ore = 1 }, vp = 1,
  text = "1 point; the 4 regions around its city are safe from the Plague; needed for the Doctor",
  index = "Bath House: protects the 4 regions adjacent to its city." })
city_expansion({ name = "building_crane", cost = { lumber = 1 },
  text = "city expansions costing more than 4 resources cost 1 of your choice less (`build parliament L1 saving wool`); needs a University",
  index = "Building Crane: only for city expansions of more than 4 resources; you choose the resource saved.",
  requires = university })
-- The Library's progress point: our card data is unsure (rivals_cards.csv "0?"); the card
-- is a progress building like the Abbey, which the University may need instead of it, and
-- the printed card shows the point, so it counts 1.
city_expansion({ name = "library", cost = { brick = 1, lumber = 2, ore = 1 }, vp = 1, progress = 1,
  text = "1 point, 1 progress point; when built, look through a draw stack (`library 2`) and take a card of it (`library take scout`)",
  index = "Library: you may play the chosen card at once.",
  on_build = function(g, p) R.resolve(g, { R.choice(p, "library") }) end })
city_expansion({ name = "parliament", cost = { brick = 2, wool = 2, lumber = 3 }, vp = 2,
  text = "2 points; needs 2 progress points on your expansions",
  index = "Parliament: not buildable without at least 2 progress points in your principality.",
  requires = function(g, p)
    if R.tally(g, p).progress >= 2 then return true end
    return false, "the Parliament needs 2 progress points in your principality"
  end })
city_expansion({ name = "pharmacy", cost = { brick = 1, wool = 2, gold = 1 }, vp = 1,
  text = "1 point; when the Plague breaks out, take 1 resource of your choice, even when you lose nothing",
  index = "Pharmacy: 1 resource for each Pharmacy." })
city_expansion({ name = "town_hall", cost = { brick = 1, wool = 2, ore = 2 }, vp = 1,
  text = "1 point; built on your Parish Hall in a city; searching a draw stack is free (`search 2`)",
  index = "Town Hall: the Parish Hall stays beneath it, stays when the Town Hall is removed and moves with it "
    .. "by Relocation; no second Parish Hall.",
  requires = function(g, p)
    for _, rc in ipairs(g:grid_find(p, P, "parish_hall")) do
      if rc.row ~= R.CENTER and R.top(g, p, R.CENTER, rc.col) == "city" then return true end
    end
    return false, "the Town Hall goes on your Parish Hall, in a city"
  end })
city_expansion({ name = "university", one_x = true, cost = { brick = 1, grain = 2, lumber = 2 }, vp = 1, progress = 1,
  text = "1 point, 1 progress point; needs an Abbey or a Library; needed for the Chief Cannoneer, Building Crane, "
    .. "Mineral Mining and Three-Field System (1x, face-up stack)",
  index = "University: 1 per principality. What needed it stays when it is removed.",
  requires = function(g, p)
    if has(g, p, "abbey") or has(g, p, "library") then return true end
    return false, "the University needs an Abbey or a Library in your principality"
  end })

-- The Town Hall stands on the Parish Hall (the positions of a Parish Hall in a city).
filter("sites", "rivals_progress.town_hall", function(g, out, p, kind)
  if kind ~= "town_hall" then return out end
  local on = {}
  for _, rc in ipairs(g:grid_find(p, P, "parish_hall")) do
    if rc.row ~= R.CENTER and R.top(g, p, R.CENTER, rc.col) == "city" then on[#on + 1] = { rc.row, rc.col } end
  end
  return on
end)

-- No second Parish Hall under a Town Hall.
CARDS.parish_hall.requires = function(g, p)
  if has(g, p, "town_hall") then return false, "your Parish Hall is beneath your Town Hall" end
  return true
end

-- Action cards.
R.card({ name = "benjamin", type = "action", copies = 0,
  text = "your regions with this turn's production number produce once more",
  index = "Benjamin the Traveling Scholar: regions of a settlement built since the roll count too; production "
    .. "boosters do not." })
R.card({ name = "doctor", type = "action", copies = 0,
  text = "with a Bath House: the 4 regions around the city of one Bath House receive 1 resource each (`play doctor L1`)",
  index = "Doctor: not playable without a Bath House; one Bath House only." })
R.card({ name = "guido", type = "action", copies = 0,
  text = "with a Town Hall, or fewer points than your opponent: take a card of your choice from the discard pile",
  index = "Guido the Ambassador: you may play the card at once.",
  requires = function(g, p) return R.discard_take_requires(g, p, "town_hall") end })
R.card({ name = "gustav", type = "action", copies = 0,
  text = "with a Library, or fewer points than your opponent: take a card of your choice from the discard pile",
  index = "Gustav the Librarian: you may play the card at once.",
  requires = function(g, p) return R.discard_take_requires(g, p, "library") end })
R.card({ name = "mineral_mining", type = "action", copies = 0,
  text = "with a University: your mountains receive 2 ore",
  index = "Mineral Mining: what your mountains cannot store is lost.", requires = university })
R.card({ name = "three_field_system", type = "action", copies = 0,
  text = "with a University: your fields receive 2 grain",
  index = "Three-Field System: what your fields cannot store is lost.", requires = university })

R.card({ name = "plague", type = "event", copies = 0 })

-- Special Rules 3: two theme stacks of 12, the 2 Universities face up, 5 events.
R.theme_set {
  name = "progress",
  events = { plague = 3, invention = 2 },
  faceup = { university = 2 },
  draw = {
    benjamin = 1, doctor = 2, guido = 1, gustav = 1, mineral_mining = 2, three_field_system = 2, brigitta = 1,
    relocation = 1, chief_cannoneer = 2, bath_house = 3, building_crane = 1, library = 2, parliament = 1,
    pharmacy = 2, town_hall = 2,
  },
  -- rivals_cards.csv, half_moon_copies (The Duel of the Princes).
  half_moon = {
    doctor = 1, mineral_mining = 1, three_field_system = 1, brigitta = 1, relocation = 1, chief_cannoneer = 1,
    bath_house = 1, library = 1, parliament = 1, pharmacy = 1, town_hall = 1, university = 1, plague = 2,
    invention = 2,
  },
}

-- Building Crane: city expansions of more than 4 resources for 1 less.
R.add_saving(function(g, p, kind)
  local d = CARDS[kind]
  return d.placement == "city" and R.total(d.cost or {}) > 4 and has(g, p, "building_crane")
end)

-- Action cards ----------------------------------------------------------------------------------

R.card_action("benjamin", {
  name = "play_benjamin",
  syntax = "play benjamin",
  help = "play Benjamin the Traveling Scholar: your regions with this turn's production number produce again",
  apply = function(g, p)
    local n = g:get("dice").production
    R.discard_card(g, p, "benjamin")
    local got = {}
    for _, s in ipairs(R.regions(g, p)) do
      if s.def.die == n and s.store < R.MAX_STORE then
        g:set_store(p, P, s.row, s.col, s.store + 1)
        got[s.def.resource] = (got[s.def.resource] or 0) + 1
      end
    end
    g:log(name(g, p) .. " plays Benjamin the Traveling Scholar (" .. n .. "): " .. name(g, p) .. " receives "
      .. R.cards_text(got))
  end,
})

local function bath_houses(g, p)
  local out = {}
  for _, rc in ipairs(g:grid_find(p, P, "bath_house")) do out[#out + 1] = R.label(g, p, rc.row, rc.col) end
  return out
end

CARDS.doctor.requires = function(g, p)
  if has(g, p, "bath_house") then return true end
  return false, "the Doctor needs a Bath House in your principality"
end

R.card_action("doctor", {
  name = "play_doctor",
  syntax = "play doctor <slot>",
  help = "play the Doctor: name one of your Bath Houses; the 4 regions around its city receive 1 resource each",
  options = bath_houses,
  legal = select(2, R.one_of(bath_houses, "name one of your Bath Houses")),
  apply = function(g, p, lbl)
    local _, c = R.own(g, p, lbl)
    R.discard_card(g, p, "doctor")
    local got = {}
    for _, rc in ipairs(town_regions(g, p, c)) do
      local res = CARDS[R.top(g, p, rc[1], rc[2])].resource
      local have = g:store(p, P, rc[1], rc[2])
      if have < R.MAX_STORE then
        g:set_store(p, P, rc[1], rc[2], have + 1)
        got[res] = (got[res] or 0) + 1
      end
    end
    g:log(name(g, p) .. " plays the Doctor at " .. lbl .. ": " .. name(g, p) .. " receives " .. R.cards_text(got))
  end,
})

-- Guido and Gustav: the card's building, or fewer points; a card in the discard pile.
function R.discard_take_requires(g, p, building)
  if g:count(nil, "discard") == 0 then return false, "the discard pile is empty" end
  if has(g, p, building) or R.points(g, p) < R.points(g, other(p)) then return true end
  local what = building == "library" and "Library" or "Town Hall"
  return false, "you need a " .. what .. " or fewer points than " .. name(g, other(p))
end

-- The card stays in hand while its player looks through the discard pile (so it cannot be
-- taken back), then goes onto the pile.
for _, kind in ipairs({ "guido", "gustav" }) do
  R.card_action(kind, {
    name = "play_" .. kind,
    syntax = "play " .. kind,
    help = "play " .. title(kind) .. ": look through the discard pile and take a card of it (`retrieve scout`)",
    apply = function(g, p)
      local list = {}
      for i, k in ipairs(g:cards(nil, "discard")) do list[i] = title(k) end
      g:log(name(g, p) .. " plays " .. title(kind) .. " and looks through the discard pile")
      g:tell({ p }, "the discard pile (bottom to top): " .. table.concat(list, ", "))
      R.resolve(g, { R.choice(p, "retrieve", { card = kind }) })
    end,
  })
end

-- The kinds in a stack, each once, sorted.
local function kinds_in(list)
  local out, seen = {}, {}
  for _, k in ipairs(list) do
    if not seen[k] then seen[k] = true; out[#out + 1] = k end
  end
  table.sort(out)
  return out
end

local function discard_kinds(g) return kinds_in(g:cards(nil, "discard")) end

action {
  name = "retrieve",
  phases = { "choose" },
  syntax = "retrieve <word>",
  help = "Guido, Gustav: take this card from the discard pile into your hand",
  when = function(g, p) return R.choosing(g, p, { retrieve = true }) ~= nil end,
  options = discard_kinds,
  legal = function(g, p, kind)
    kind = kind:lower()
    if not CARDS[kind] or g:count(nil, "discard", kind) == 0 then return deny("the discard pile holds no " .. kind) end
    return true
  end,
  apply = function(g, p, kind)
    kind = kind:lower()
    local played = R.head(g).card
    g:move(nil, "discard", p, "hand", kind)
    R.discard_card(g, p, played)
    g:log(title(played) .. ": " .. name(g, p) .. " takes a card from the discard pile")
    g:tell({ p }, "you take " .. R.card_text(kind))
    R.choice_done(g)
  end,
}

-- Mineral Mining and Three-Field System: 2 of the resource (what fits), "among any mountains
-- (fields) regions of your choice": `store` choices while more than one could take it.
for kind, res in pairs({ mineral_mining = "ore", three_field_system = "grain" }) do
  R.card_action(kind, {
    name = "play_" .. kind,
    syntax = "play " .. kind,
    help = "play " .. title(kind) .. " (University): receive 2 " .. res,
    apply = function(g, p)
      R.discard_card(g, p, kind)
      R.resolve(g, R.store_choices(g, p, res, 2, title(kind)))
    end,
  })
end

-- Library: look through a draw stack, then take a card of it.
-- The draw stacks with cards (the Library and the Town Hall look through one of them).
local function stacks_with_cards(g)
  local out = {}
  for i, s in ipairs(R.STACKS) do
    if g:count(nil, s) > 0 then out[#out + 1] = i end
  end
  return out
end

local function stack_with_cards(g, p, n)
  local s = R.stack_index(n)
  if not s or g:count(nil, s) == 0 then return deny("name a draw stack with cards") end
  return true
end

-- Shows stack n to p alone, bottom to top.
local function show_stack(g, p, n)
  local list = {}
  for i, k in ipairs(g:cards(nil, R.stack_index(n))) do list[i] = title(k) end
  g:tell({ p }, "draw stack " .. n .. " (bottom to top): " .. table.concat(list, ", "))
end

R.possible.library = function(g) return #stacks_with_cards(g) > 0 end

local function library_task(g, p, looking)
  local task = R.choosing(g, p, { library = true })
  if task and (task.stack ~= nil) == looking then return task end
end

action {
  name = "library_look",
  phases = { "choose" },
  syntax = "library <int>",
  help = "library: look through this draw stack to take a card of it",
  when = function(g, p) return library_task(g, p, false) ~= nil end,
  options = stacks_with_cards,
  legal = stack_with_cards,
  apply = function(g, p, n)
    local q = g:get("queue")
    q[1].stack = n
    g:set("queue", q)
    g:log("library: " .. name(g, p) .. " looks through draw stack " .. n)
    show_stack(g, p, n)
  end,
}

local function library_cards(g, p)
  return kinds_in(g:cards(nil, R.stack_index(library_task(g, p, true).stack)))
end

action {
  name = "library_take",
  phases = { "choose" },
  syntax = "library take <word>",
  help = "library: take this card of the stack you look through",
  when = function(g, p) return library_task(g, p, true) ~= nil end,
  options = library_cards,
  legal = function(g, p, kind)
    kind = kind:lower()
    if not R.contains(library_cards(g, p), kind) then return deny("the stack holds no " .. kind) end
    return true
  end,
  apply = function(g, p, kind)
    kind = kind:lower()
    local n = R.head(g).stack
    g:move(nil, R.stack_index(n), p, "hand", kind)
    g:log("library: " .. name(g, p) .. " takes a card from draw stack " .. n)
    g:tell({ p }, "you take " .. R.card_text(kind))
    R.choice_done(g)
  end,
}

-- Town Hall: searching a draw stack in the exchange is free.
action {
  name = "search_free",
  phases = { "exchange_take" },
  syntax = "search <int>",
  help = "Town Hall: look through a draw stack for free and take a card of your choice",
  when = function(g, p) return R.my_turn(g, p) and has(g, p, "town_hall") end,
  options = stacks_with_cards,
  legal = stack_with_cards,
  apply = function(g, p, n)
    g:set("searching", n)
    g:set_phase("search")
    g:log(name(g, p) .. " searches draw stack " .. n .. " (Town Hall: free)")
    show_stack(g, p, n)
  end,
}

-- Event: the Plague ---------------------------------------------------------------------------------

-- Every region next to a city loses 1 resource (once, even next to 2 cities), unless a Bath
-- House of one of its cities protects it; then each Pharmacy gives 1 resource of choice, "in
-- any one region of your choice" (`place`).
-- Region expansions (the Gold Cache) are not affected.
R.events.plague = function(g)
  local out = {}
  for _, p in ipairs(R.order_from(g, g:current())) do
    local hit, safe = {}, {}
    for _, t in ipairs(R.towns(g, p)) do
      if t.city then
        local bath = false
        for _, r in ipairs({ 1, 2, 4, 5 }) do bath = bath or R.top(g, p, r, t.col) == "bath_house" end
        for _, rc in ipairs(town_regions(g, p, t.col)) do
          local key = rc[1] * 100 + rc[2]
          hit[key] = rc
          if bath then safe[key] = true end
        end
      end
    end
    local lost = {}
    local keys = {}
    for key in pairs(hit) do keys[#keys + 1] = key end
    table.sort(keys)
    for _, key in ipairs(keys) do
      local rc = hit[key]
      local have = g:store(p, P, rc[1], rc[2])
      if not safe[key] and have > 0 then
        g:set_store(p, P, rc[1], rc[2], have - 1)
        local res = CARDS[R.top(g, p, rc[1], rc[2])].resource
        lost[res] = (lost[res] or 0) + 1
      end
    end
    g:log("plague: " .. name(g, p) .. " loses " .. R.cards_text(lost))
    local ph = g:grid_count(p, P, "pharmacy")
    if ph > 0 then out[#out + 1] = R.choice(p, "gain", { left = ph, reason = "pharmacy", place = true }) end
  end
  return out
end
