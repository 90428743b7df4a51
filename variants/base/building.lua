-- CATAN: whose move it is and why one is refused, base's exports (`catan`), and building:
-- settlements, roads and cities, in the set-up rounds and in the turn, and buying
-- development cards.
-- Rulebook: Setting Up the Game; The Turn in Detail, 3. Build; Almanac: Build, Settlements,
-- Roads, Cities, Distance Rule, Set-up Phase.
-- A part of ../base.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local RESOURCES, copy, cards_text = shared.RESOURCES, shared.copy, shared.cards_text
local total, has, pay, hand_size = shared.total, shared.has, shared.pay, shared.hand_size
local cost, name = shared.cost, shared.name
local did_build = shared.did_build
local starting_resources, begin_turns = shared.starting_resources, shared.begin_turns
local update_longest_road = shared.update_longest_road

-- Set-up phase actions -------------------------------------------------------------------

local function setup_turn(g, p)
  return g:phase() == "setup" and g:get("setup_order", g:get("setup_index")) == p
end

-- Why an action of the turn is refused now, in the rulebook's words: the `why_not` of the
-- actions below (and of the later parts), asked only when a player is refused (listing never
-- calls it).
local WAIT_FOR = {
  roll = "roll the dice first",
  discard = "on a 7, the players with too many cards discard half first",
  robber = "move the robber first",
  steal = "choose whom to rob first",
  road_building = "place your free roads first (or `done`)",
  special_building = "only building is allowed in the Special Building Phase",
  build = "the trade phase is over: build, or end your turn",
}
-- A trade offer waits: each other player answers it, then the one who offered confirms a
-- partner or withdraws it. Each is told what they can do.
local function why_not_offer(g, p)
  local offer = g:get("offer")
  if p == offer.from then
    local terms = {}
    for q = 1, g:players() do
      local answer, c = offer.responses[q], (offer.counters or {})[q]
      if answer == "accept" then
        terms[#terms + 1] = name(g, q) .. " accepts (you give " .. cards_text(offer.give) .. ")"
      elseif answer == "counter" and c then
        terms[#terms + 1] = name(g, q) .. " counters (you give " .. cards_text(c.get) .. " for " .. cards_text(c.give) .. ")"
      end
    end
    local answers = #terms > 0 and (table.concat(terms, "; ") .. ": ") or ""
    return "your trade offer is open: " .. answers .. "`confirm PLAYER` with one who accepted or countered, or `cancel`"
  end
  return name(g, offer.from) .. " offers " .. cards_text(offer.give) .. " for " .. cards_text(offer.get)
    .. ": `accept` (you give " .. cards_text(offer.get) .. "), `decline`, or `counter <cards> for <cards>`"
end

local function why_not_turn(g, p)
  local ph = g:phase()
  if ph == "offer" then return why_not_offer(g, p) end
  if ph == "setup" then
    local order = g:get("setup_order") or {}
    local who = order[g:get("setup_index")]
    if who and who ~= p then return "it is " .. g:color(who) .. "'s turn to place" end
    return "in the set-up rounds, place your " .. (g:get("setup_step") or "pieces") .. " first"
  end
  if p ~= g:current() and ph ~= "special_building" and ph ~= "discard" and ph ~= "offer" then
    return "it is not your turn: " .. g:color(g:current()) .. " is playing"
  end
  if ph == "main" or ph == "trade" then return "you have already rolled the dice this turn" end
  return WAIT_FOR[ph]
end

local function settlement_sites(g, p)
  -- Distance Rule: no settlement or city on any adjacent intersection.
  return g:open_intersections(2, p)
end

local function contains(list, x)
  for _, v in ipairs(list) do if v == x then return true end end
  return false
end

-- Base's small helpers, for modules layered on base (helpers.lua) to call instead of
-- keeping copies: a sandboxed variant has no `require`, and locals are private to a file.
catan = {
  RESOURCES = RESOURCES,
  copy = copy,
  total = total,
  cards_text = cards_text,
  has = has,
  pay = pay,
  hand_size = hand_size,
  contains = contains,
  name = name,
}

-- Building -------------------------------------------------------------------------------
-- Each building action says what it needs (docs/modding.md, "What an action needs"): in
-- the turn, the player whose turn it is (`turn`), a piece left (`supply`) and its price
-- from the hand (`cost`, after every variant's cost filter; free in the set-up rounds).

action {
  name = "settlement",
  phases = { "setup", "main", "trade", "build", "special_building" },
  syntax = "settlement <intersection>",
  help = "build a settlement; in the set-up phase, place one for free",
  why_not = why_not_turn,
  turn = { "main", "trade", "build", "special_building" },
  supply = "settlement",
  cost = { "settlement", from = "hand", free = { "setup" } },
  -- Set-up Phase: the player placing, a settlement before its road.
  when = function(g, p)
    if g:phase() == "setup" then return setup_turn(g, p) and g:get("setup_step") == "settlement" end
    return true
  end,
  options = function(g, p)
    if g:phase() == "setup" then return g:open_intersections(2) end
    return settlement_sites(g, p)
  end,
  legal = function(g, p, node)
    local piece = g:at("intersection", node)
    if piece then return deny("that intersection is taken") end
    for _, n in ipairs(g:neighbors(node)) do
      if g:at("intersection", n) then return deny("the Distance Rule: an adjacent intersection is occupied") end
    end
    if g:phase() == "setup" then return true end
    local connected = false
    for _, path in ipairs(g:paths_at(node)) do
      local _, owner = g:at("path", path)
      if owner == p then connected = true end
    end
    if not connected then return deny("a settlement must connect to one of your roads") end
    return true
  end,
  apply = function(g, p, node)
    local holder = g:get("longest_road")
    local before = holder and g:longest_trail(holder, "road")
    if g:phase() == "setup" then
      g:place(p, "settlement", node)
      g:log("%s places a settlement on %d", name(g, p), node)
      local idx = g:get("setup_index")
      if idx > g:players() then starting_resources(g, p, node) end
      g:set("setup_last", node)
      g:set("setup_step", "road")
    else
      pay(g, p, cost(g, "settlement", p))
      g:place(p, "settlement", node)
      did_build(g)
      g:log("%s builds a settlement on %d", name(g, p), node)
    end
    -- A settlement may break an opponent's road (Almanac: Longest Road).
    update_longest_road(g, before)
    g:emit("built", { seat = p, piece = "settlement", site = node })
  end,
}

-- Where p may build a road now (none without a road left).
local function road_spots(g, p)
  if g:supply(p, "road") == 0 then return {} end
  return g:open_paths(p)
end

action {
  name = "road",
  phases = { "setup", "road_building", "main", "trade", "build", "special_building" },
  syntax = "road <path>",
  help = "build a road; free in the set-up phase and with Road Building",
  why_not = why_not_turn,
  turn = { "road_building", "main", "trade", "build", "special_building" },
  supply = "road",
  cost = { "road", from = "hand", free = { "setup", "road_building" } },
  -- Set-up Phase: the player placing, a road after its settlement.
  when = function(g, p)
    if g:phase() == "setup" then return setup_turn(g, p) and g:get("setup_step") == "road" end
    return true
  end,
  options = function(g, p)
    if g:phase() == "setup" then
      local out = {}
      for _, path in ipairs(g:paths_at(g:get("setup_last"))) do
        if not g:at("path", path) then out[#out + 1] = path end
      end
      return out
    end
    return g:open_paths(p)
  end,
  legal = function(g, p, path)
    if g:at("path", path) then return deny("there is already a road on that path") end
    if g:phase() == "setup" then
      -- Set-up Phase: the road attaches to the settlement just placed.
      local a, b = g:ends(path)
      local last = g:get("setup_last")
      if a ~= last and b ~= last then return deny("the set-up road must touch the settlement you just placed") end
      return true
    end
    if not contains(g:open_paths(p), path) then
      return deny("a road must connect to your road, settlement or city (and not through another player's building)")
    end
    return true
  end,
  apply = function(g, p, path)
    local ph = g:phase()
    local a, b = g:ends(path)
    g:place(p, "road", path)
    if ph == "setup" then
      g:log("%s places a road on %d-%d", name(g, p), a, b)
      local idx = g:get("setup_index") + 1
      g:set("setup_index", idx)
      g:set("setup_step", "settlement")
      if idx > #g:get("setup_order") then
        -- The starting player, last to place, begins the game (Set-up Phase, Round Two).
        g:set("setup_order", nil); g:set("setup_index", nil); g:set("setup_step", nil); g:set("setup_last", nil)
        begin_turns(g, g:get("starting_player"))
      end
    elseif ph == "road_building" then
      local left = g:get("free_roads") - 1
      g:log("%s builds a free road on %d-%d", name(g, p), a, b)
      if left == 0 or #road_spots(g, p) == 0 then
        g:set("free_roads", nil)
        g:set_phase(g:get("return_phase"))
        g:set("return_phase", nil)
      else
        g:set("free_roads", left)
      end
    else
      pay(g, p, cost(g, "road", p))
      did_build(g)
      g:log("%s builds a road on %d-%d", name(g, p), a, b)
    end
    update_longest_road(g)
    g:emit("built", { seat = p, piece = "road", site = path })
  end,
}

action {
  name = "city",
  phases = { "main", "trade", "build", "special_building" },
  syntax = "city <intersection>",
  help = "upgrade one of your settlements to a city",
  why_not = why_not_turn,
  turn = true,
  supply = "city",
  cost = { "city", from = "hand" },
  options = function(g, p) return g:pieces_of(p, "settlement") end,
  legal = function(g, p, node)
    local kind, owner = g:at("intersection", node)
    if kind ~= "settlement" or owner ~= p then return deny("a city replaces one of your own settlements") end
    return true
  end,
  apply = function(g, p, node)
    pay(g, p, cost(g, "city", p))
    -- Cities: the settlement goes back to your supply.
    g:upgrade(node, "city")
    did_build(g)
    g:log("%s builds a city on %d", name(g, p), node)
    g:emit("built", { seat = p, piece = "city", site = node })
  end,
}

action {
  name = "buy",
  phases = { "main", "trade", "build", "special_building" },
  syntax = "buy",
  help = "buy a development card",
  why_not = why_not_turn,
  turn = true,
  cost = { "development", from = "hand" },
  legal = function(g, p)
    -- Development cards: none can be bought once the deck is empty.
    if g:empty(nil, "deck") then return deny("the development card deck is empty") end
    return true
  end,
  apply = function(g, p)
    pay(g, p, cost(g, "development", p))
    local card = g:draw(nil, "deck", p, "dev_new")
    did_build(g)
    g:log(name(g, p) .. " buys a development card")
    g:tell({ p }, "you drew: " .. card)
    g:emit("bought", { seat = p, card = card })
  end,
}

-- For the parts after this one.
shared.WAIT_FOR, shared.why_not_turn = WAIT_FOR, why_not_turn
shared.settlement_sites, shared.contains, shared.road_spots = settlement_sites, contains, road_spots
