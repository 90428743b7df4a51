-- Helpers of Catan (../shared/rules/003: "HELPERS RULES" and "HELPERS OF CATAN: HELPERS IN
-- DETAIL"), a MODULE: stack it on an edition, `--variant base+helpers`, `family+helpers`,
-- `classic+helpers`, or base with `--players 5` or `6`. It declares no `extends`: a stack
-- loads left to right into one Lua state, so this file layers on whatever edition was loaded
-- before it (`layers_on`: base, when it is loaded alone or first), and changes it only
-- through named hooks, filter points and actions:
--
--   filters   cost (base.cost gives every price), trade_ratio (Jean), discard_count (Sean),
--             to_act (a helper's decision by a player whose turn it is not), describe
--   events    built (first helper; Vincent, William, Louis), produced (Marianne),
--             bought (Candamir), rolled (Marianne's chance)
--   sequences setup (the stack and display), base.seven wrapped (Sean decides before the
--             discards), free_roads (Louis and William place their road through base)
--   actions   one per helper, the decisions that follow, and `done` wrapped (a road Louis
--             or William owes must be placed)
--
-- State: the cards are zones (helper_stack, helper_display, each player's helper); per player
-- helper_side ("A"/"B"), helper_got and helper_used (the turn key when received / used),
-- helper_mode (Candamir or Vincent waiting for the build they change), helper_road (Louis or
-- William waiting for their road), helper_jean, helper_excused (Sean); var helper_window, a
-- decision in phase "helpers" (who decides, what, and the phase to go back to).

local HELPERS = { "candamir", "hilde", "jean", "lin", "louis", "marianne", "nassir", "sean", "vincent", "william" }

variant {
  layers_on = "base",
  description = "Helpers of Catan (module): ten double-sided helpers, each player always has one. "
    .. "Stack it on an edition: base+helpers, family+helpers, classic+helpers. The order of the "
    .. "numbered stack beyond A1 = Nassir is a stand-in (not in our sources).",
  cards = { helper = HELPERS },
  zones = {
    -- The numbered helpers, A1 on top; the display (always A side up); each player's helper.
    { name = "helper_stack", owner = "game", stack = true, visibility = "public" },
    { name = "helper_display", owner = "game", visibility = "public" },
    { name = "helper", owner = "player", visibility = "public" },
    -- Candamir: the three development cards to choose from.
    { name = "helper_draw", owner = "player", visibility = "owner" },
  },
  options = {
    { name = "helper_order", type = "text", default = "",
      doc = "the six numbered helpers A1..A6, top first, comma-separated (e.g. "
        .. "\"nassir,jean,william,lin,candamir,louis\"); empty: our stand-in order" },
  },
  -- The card kept (Candamir) and the card taken (Hilde) are seen by the players concerned only.
  secret_actions = { "candamir_keep", "hilde" },
}

-- The edition below must be base or built on it (its hooks are what this file changes).
local function has_hook(name)
  for _, n in ipairs(hook_names()) do
    if n == name then return true end
  end
  return false
end
if not has_hook("base.seven") then
  error("helpers layers on base or an edition built on it (base+helpers, family+helpers, classic+helpers)", 0)
end

-- Data -------------------------------------------------------------------------------------

local TITLE = {
  candamir = "Candamir", hilde = "Hilde", jean = "Jean", lin = "Lin", louis = "Louis",
  marianne = "Marianne", nassir = "Nassir", sean = "Sean", vincent = "Vincent", william = "William",
}

-- STAND-IN ORDER. Which six helpers carry the numbers A1-A6 is printed on the cards, which are
-- not in our sources (../shared/reference/helpers.md): only A1 = Nassir follows from the
-- rulebook ("the player to the starting player's right will always start with Nassir"). A2-A6
-- are our choice; the four helpers not listed start in the display. Changing the order is an
-- edit of this list (or, for one game, option helper_order).
local NUMBERED = { "nassir", "jean", "william", "lin", "candamir", "louis" }

local RESOURCES = catan.RESOURCES

-- Played cards that are knights: base and family's knight, classic's Soldier.
local KNIGHTS = { knight = true, soldier = true }

-- Vincent's building costs (Helpers in Detail: Vincent).
local VINCENT = { settlement = { lumber = 1, brick = 1 }, city = { ore = 2, grain = 1 } }

-- Own turn, before or after the roll; after it (production resolved).
local TURN = { "roll", "main", "trade", "build" }
local AFTER_ROLL = { "main", "trade", "build" }

-- Small helpers ----------------------------------------------------------------------------

local next = next

-- Base's own helpers (see `catan` in base.lua).
local name, hand_size, has, pay = catan.name, catan.hand_size, catan.has, catan.pay
local copy, cards_text, contains = catan.copy, catan.cards_text, catan.contains

-- A turn: the turn number and the seat whose turn it is (with paired 5-6 player turns, player
-- 2's action phase is a turn of its own). Helpers dealt in the set-up are stamped 0.
local function turn_key(g) return g:turn() * 10 + g:current() end

local function helper_of(g, p)
  for h in pairs(g:cards(p, "helper")) do return h end
end

local function holder(g, h)
  for p = 1, g:players() do
    if g:count(p, "helper", h) > 0 then return p end
  end
end


local function is_resource(r) return contains(RESOURCES, r) end

-- Any price, with every variant's changes (base.cost is the first "cost" filter).
local function cost(g, what, p) return g:filter("cost", {}, what, p) end

-- `cards` with one `instead` paid as `pay`, or nil if `cards` holds no `instead`.
local function substitute(cards, pay_with, instead)
  if (cards[instead] or 0) == 0 or pay_with == instead then return nil end
  local c = copy(cards)
  c[instead] = c[instead] - 1
  if c[instead] == 0 then c[instead] = nil end
  c[pay_with] = (c[pay_with] or 0) + 1
  return c
end

local function supply_resources(g)
  local out, bank = {}, g:cards(nil, "bank")
  for _, r in ipairs(RESOURCES) do
    if (bank[r] or 0) > 0 then out[#out + 1] = r end
  end
  return out
end

local function public_points(g, p) return g:filter("victory_points", 0, p, false) end

-- The life cycle ---------------------------------------------------------------------------

-- Prohibitions: never the turn you received it, never twice in a turn, never in the Special
-- Building Phase (5-6 players).
local function ready(g, p, h)
  if g:count(p, "helper", h) == 0 or g:phase() == "special_building" then return false end
  local k = turn_key(g)
  return g:pget(p, "helper_got") ~= k and g:pget(p, "helper_used") ~= k
end

-- Candamir or Vincent waiting, this turn, for the build they change.
local function mode(g, p)
  local m = g:pget(p, "helper_mode")
  if m and m.key == turn_key(g) then return m end
end

-- A helper used in your own turn: yours, ready, and nothing of it still pending.
local function own(g, p, h)
  return p == g:current() and ready(g, p, h) and not mode(g, p) and not g:pget(p, "helper_road")
end

local function window(g) return g:get("helper_window") end

local function in_window(g, p, kind)
  local w = window(g)
  return w ~= nil and w.kind == kind and w.seat == p
end

-- What the player is asked (`legal` lists the exact commands). Marianne's and Sean's chances
-- come on another player's action, so they are said to everyone (nothing in them is secret);
-- the others are told to the player who just acted.
local ASK = {
  after = "keep or exchange your helper: `helper flip` (A side only) or `helper exchange NAME`",
  candamir = "Candamir: keep one of the cards drawn: `keep CARD`",
  marianne = "Marianne: that roll gave you nothing: `marianne RESOURCE` or `skip`",
  sean = "Sean: a 7: `sean` (more than 7 cards: discard nothing) or `sean RESOURCE` (7 or fewer), or `skip`",
  nassir = "Nassir: give a card back to each player who gave you one: `return RESOURCE to PLAYER`",
}

-- A decision: phase "helpers" until it is made. `w.ret` is the phase to go back to; `w.seven`
-- (Sean) instead holds the roll whose 7 base resolves once the decision is made.
local function open(g, w)
  g:set("helper_window", w)
  g:set_phase("helpers")
  if w.kind == "marianne" or w.kind == "sean" then
    g:log(name(g, w.seat) .. ", " .. ASK[w.kind])
  else
    g:tell({ w.seat }, ASK[w.kind])
  end
end

local resolve_seven -- base's base.seven, captured when wrapped (below)

local function close(g)
  local w = window(g)
  g:set("helper_window", nil)
  if w.seven then
    resolve_seven(g, w.seven.seat, w.seven.after)
  else
    g:set_phase(w.ret)
  end
end

local function mark_used(g, p) g:pset(p, "helper_used", turn_key(g)) end

-- After Using a Helper's Advantage: keep it (turn A to B) or exchange it, decided at once.
local function used(g, p, h)
  mark_used(g, p)
  local w = window(g)
  if w then
    w.kind, w.seat, w.helper = "after", p, h
    g:set("helper_window", w)
    g:tell({ p }, ASK.after)
  else
    open(g, { kind = "after", seat = p, helper = h, ret = g:phase() })
  end
end

filter("to_act", "helpers.to_act", function(g, seat)
  if g:phase() == "helpers" then return window(g).seat end
  return seat
end)

filter("describe", "helpers.describe", function(g, info, p)
  local h = helper_of(g, p)
  if h then info.helper = TITLE[h] .. " (" .. (g:pget(p, "helper_side") or "A") .. ")" end
  return info
end)

-- `show players` prints the edition's summary line; add the helper to it.
filter("describe", "helpers.summary", function(g, info, p)
  if info.helper and info.summary then info.summary = info.summary .. "  helper: " .. info.helper end
  return info
end, { priority = 110 })

-- Set-up -----------------------------------------------------------------------------------

local function stack_order(g)
  local text = g:option("helper_order")
  if text == "" then return NUMBERED end
  local out = {}
  for word in text:gmatch("[^,%s]+") do
    local h = word:lower()
    if not TITLE[h] then error("option helper_order: '" .. word .. "' is not a helper (" .. table.concat(HELPERS, ", ") .. ")", 0) end
    if contains(out, h) then error("option helper_order names " .. word .. " twice", 0) end
    out[#out + 1] = h
  end
  if #out ~= 6 then error("option helper_order needs the six numbered helpers, not " .. #out, 0) end
  return out
end

-- Taking Your First Helper: the top of the stack, A side up; once everyone has one, the rest
-- of the stack joins the display.
local function take_first(g, p)
  local h = g:draw(nil, "helper_stack", p, "helper")
  g:pset(p, "helper_side", "A")
  g:pset(p, "helper_got", 0)
  g:log(name(g, p) .. " takes the helper " .. TITLE[h])
  for q = 1, g:players() do
    if g:count(q, "helper") == 0 then return end
  end
  while g:draw(nil, "helper_stack", nil, "helper_display") do end
end

sequence("setup", "helpers.setup", function(g)
  local order = stack_order(g)
  for i = #order, 1, -1 do g:create(nil, "helper_stack", order[i], 1) end -- A1 on top
  for _, h in ipairs(HELPERS) do
    if not contains(order, h) then g:create(nil, "helper_display", h, 1) end
  end
  -- Fixed starting pieces: no set-up rounds, so the helpers go out in the order the second
  -- settlements would have been built: from the starting player's right, counter-clockwise.
  if g:phase() ~= "setup" then
    local first, n = g:current(), g:players()
    for i = 1, n do take_first(g, (first - 1 - i) % n + 1) end
  end
end)

on("built", "helpers.first_helper", function(g, e)
  if g:phase() == "setup" and e.piece == "settlement" and g:count(e.seat, "helper") == 0
    and g:piece_count(e.seat, "settlement") == 2 then
    take_first(g, e.seat)
  end
end)

-- Keep or exchange ------------------------------------------------------------------------

action {
  name = "helper_flip",
  phases = { "helpers" },
  syntax = "helper flip",
  help = "after using your helper (A side): keep it, turned to its B side",
  when = function(g, p) return in_window(g, p, "after") and g:pget(p, "helper_side") == "A" end,
  apply = function(g, p)
    g:pset(p, "helper_side", "B")
    g:log(name(g, p) .. " turns " .. TITLE[helper_of(g, p)] .. " to the B side")
    close(g)
  end,
}

action {
  name = "helper_exchange",
  phases = { "helpers" },
  syntax = "helper exchange <word>",
  help = "after using your helper: put it in the display and take another one from it, A side up",
  when = function(g, p) return in_window(g, p, "after") end,
  options = function(g, p)
    local out = {}
    for h in pairs(g:cards(nil, "helper_display")) do out[#out + 1] = h end
    return out
  end,
  legal = function(g, p, h)
    if not TITLE[h] or g:count(nil, "helper_display", h) == 0 then
      return deny("take a helper from the display")
    end
    return true
  end,
  apply = function(g, p, h)
    local old = helper_of(g, p)
    g:move(p, "helper", nil, "helper_display", old, 1)
    g:move(nil, "helper_display", p, "helper", h, 1)
    g:pset(p, "helper_side", "A")
    g:pset(p, "helper_got", turn_key(g))
    g:log(name(g, p) .. " exchanges " .. TITLE[old] .. " for " .. TITLE[h])
    close(g)
  end,
}

action {
  name = "helper_skip",
  phases = { "helpers" },
  syntax = "skip",
  help = "let your helper's chance pass (Marianne, Sean)",
  when = function(g, p)
    local w = window(g)
    return w.seat == p and (w.kind == "marianne" or w.kind == "sean")
  end,
  apply = function(g, p) close(g) end,
}

-- Candamir: a development card with one resource substituted; draw 3, keep 1 --------------

local function candamir_ok(g, p, cards)
  if g:empty(nil, "deck") then return deny("the development card deck is empty") end
  if not has(g, p, cards) then return deny("you cannot pay " .. cards_text(cards)) end
  return true
end

action {
  name = "candamir",
  phases = AFTER_ROLL,
  syntax = "candamir",
  help = "Candamir: your next development card this turn: draw 3, keep 1 (then `buy`)",
  when = function(g, p) return own(g, p, "candamir") end,
  legal = function(g, p) return candamir_ok(g, p, cost(g, "development", p)) end,
  apply = function(g, p)
    g:pset(p, "helper_mode", { helper = "candamir", key = turn_key(g) })
    g:log(name(g, p) .. " calls on Candamir for the next development card (`buy`)")
  end,
}

action {
  name = "candamir_swap",
  phases = AFTER_ROLL,
  syntax = "candamir <resource> instead of <resource>",
  help = "Candamir: your next development card this turn with one resource substituted, "
    .. "e.g. `candamir lumber instead of ore`; draw 3, keep 1 (then `buy`)",
  when = function(g, p) return own(g, p, "candamir") end,
  options = function(g, p)
    local out, base, hand = {}, cost(g, "development", p), g:cards(p, "hand")
    if g:empty(nil, "deck") then return out end
    for _, instead in ipairs(RESOURCES) do
      for _, r in ipairs(RESOURCES) do
        local c = substitute(base, r, instead)
        if c and has(g, p, c, hand) then out[#out + 1] = { r, instead } end
      end
    end
    return out
  end,
  legal = function(g, p, r, instead)
    local c = substitute(cost(g, "development", p), r, instead)
    if not c then return deny("substitute one of the card's resources with another one") end
    return candamir_ok(g, p, c)
  end,
  apply = function(g, p, r, instead)
    g:pset(p, "helper_mode", { helper = "candamir", key = turn_key(g), pay = r, instead = instead })
    g:log(name(g, p) .. " calls on Candamir: the next development card for " .. r .. " instead of " .. instead
      .. " (`buy`)")
  end,
}

on("bought", "helpers.candamir", function(g, e)
  local p = e.seat
  local m = mode(g, p)
  if not (m and m.helper == "candamir") then return end
  g:pset(p, "helper_mode", nil)
  mark_used(g, p)
  g:move(p, "dev_new", p, "helper_draw", e.card, 1)
  local drawn = { e.card }
  for _ = 1, 2 do
    local c = g:draw(nil, "deck", p, "helper_draw")
    if c then drawn[#drawn + 1] = c end
  end
  g:log(name(g, p) .. " draws " .. #drawn .. " development cards to keep one (Candamir)")
  g:tell({ p }, "Candamir: you drew " .. table.concat(drawn, ", "))
  open(g, { kind = "candamir", seat = p, ret = g:phase() })
end)

action {
  name = "candamir_keep",
  phases = { "helpers" },
  syntax = "keep <word>",
  help = "Candamir: keep one of the development cards drawn; the others go back and the deck is reshuffled",
  when = function(g, p) return in_window(g, p, "candamir") end,
  options = function(g, p)
    local out = {}
    for k in pairs(g:cards(p, "helper_draw")) do out[#out + 1] = k end
    return out
  end,
  legal = function(g, p, k)
    if not g:cards(p, "helper_draw")[k] then return deny("keep one of the cards you drew") end
    return true
  end,
  apply = function(g, p, k)
    g:move(p, "helper_draw", p, "dev_new", k, 1)
    for other, n in pairs(g:cards(p, "helper_draw")) do g:move(p, "helper_draw", nil, "deck", other, n) end
    g:shuffle(nil, "deck")
    g:log(name(g, p) .. " keeps one card and reshuffles the others into the deck")
    g:tell({ p }, "you keep " .. k)
    used(g, p, "candamir")
  end,
}

-- Hilde: after production, a card of your choice from a player with more points showing ----

action {
  name = "hilde",
  phases = AFTER_ROLL,
  syntax = "hilde <player> <resource>",
  help = "Hilde: look at the hand of a player with more points showing and take one card",
  when = function(g, p) return own(g, p, "hilde") end,
  options = function(g, p)
    local out, mine = {}, public_points(g, p)
    for q = 1, g:players() do
      if q ~= p and public_points(g, q) > mine then
        local hand = g:cards(q, "hand")
        for _, r in ipairs(RESOURCES) do
          if (hand[r] or 0) > 0 then out[#out + 1] = { q, r } end
        end
      end
    end
    return out
  end,
  legal = function(g, p, q, r)
    if q == p or public_points(g, q) <= public_points(g, p) then
      return deny("Hilde takes from an opponent with more victory points showing than you")
    end
    if g:count(q, "hand", r) == 0 then return deny(name(g, q) .. " holds no " .. r) end
    return true
  end,
  apply = function(g, p, q, r)
    g:move(q, "hand", p, "hand", r, 1)
    g:log(name(g, p) .. " looks at " .. name(g, q) .. "'s hand and takes a card (Hilde)")
    g:tell({ p, q }, name(g, p) .. " took " .. r .. " from " .. name(g, q))
    used(g, p, "hilde")
  end,
}

-- Jean: one resource trades 2:1 with the supply for the rest of the turn -------------------

action {
  name = "jean",
  phases = TURN,
  syntax = "jean <resource>",
  help = "Jean: this turn, trade the resource you name with the supply at 2:1",
  when = function(g, p) return own(g, p, "jean") end,
  options = function(g, p) return RESOURCES end,
  legal = function(g, p, r) return true end,
  apply = function(g, p, r)
    g:pset(p, "helper_jean", { resource = r, key = turn_key(g) })
    g:log(name(g, p) .. " trades " .. r .. " 2:1 with the supply this turn (Jean)")
    used(g, p, "jean")
  end,
}

filter("trade_ratio", "helpers.jean", function(g, ratio, p, r)
  local j = g:pget(p, "helper_jean")
  if j and ratio > 2 and j.resource == r and j.key == turn_key(g) then return 2 end
  return ratio
end)

-- Lin: the robber from a terrain hex to the desert, and its resource ----------------------

local function deserts(g)
  local out = {}
  for h = 1, g:hex_count() do
    if g:hex(h) == "desert" then out[#out + 1] = h end
  end
  return out
end

action {
  name = "lin",
  -- "Before or after resolving your production roll": not while a 7 is being resolved.
  phases = TURN,
  syntax = "lin <hex>",
  help = "Lin: move the robber from a terrain hex to the desert and take 1 of the resource it blocked",
  when = function(g, p)
    local at = g:marker("robber")
    return own(g, p, "lin") and at ~= nil and g:hex_resource(at) ~= nil
  end,
  options = deserts,
  legal = function(g, p, h)
    if g:hex(h) ~= "desert" then return deny("Lin moves the robber to the desert") end
    return true
  end,
  apply = function(g, p, h)
    local from = g:marker("robber")
    local r = g:hex_resource(from)
    g:set_marker("robber", h)
    g:log(name(g, p) .. " moves the robber from H" .. from .. " to the desert H" .. h .. " (Lin)")
    if g:count(nil, "bank", r) > 0 then
      g:move(nil, "bank", p, "hand", r, 1)
      g:log(name(g, p) .. " takes " .. r)
    else
      g:log("the supply has no " .. r .. " left")
    end
    g:emit("robber_moved", { seat = p, hex = h })
    used(g, p, "lin")
  end,
}

-- Louis: move a road with a loose end, rebuilt free ----------------------------------------

-- p's settlement or city on `node`, or a road of p there other than `without`.
local function own_piece_at(g, p, node, without)
  local _, owner = g:at("intersection", node)
  if owner == p then return true end
  for _, path in ipairs(g:paths_at(node)) do
    if path ~= without then
      local _, o = g:at("path", path)
      if o == p then return true end
    end
  end
  return false
end

-- Could a road of p on an end at `node` join p's pieces once road `without` is gone? (As
-- g:open_paths: p's building there, or an empty intersection touching another road of p.)
local function joins(g, p, node, without)
  local _, owner = g:at("intersection", node)
  if owner then return owner == p end
  return own_piece_at(g, p, node, without)
end

-- A road Louis may move: one of its ends touches none of p's other pieces (opponents' pieces
-- do not count), and there is a place to rebuild it once it is gone.
local function movable(g, p, road)
  local kind, owner = g:at("path", road)
  if kind ~= "road" or owner ~= p then return false end
  local a, b = g:ends(road)
  if own_piece_at(g, p, a, road) and own_piece_at(g, p, b, road) then return false end
  if joins(g, p, a, road) or joins(g, p, b, road) then return true end -- its own place
  for _, path in ipairs(g:open_paths(p)) do
    local c, d = g:ends(path)
    if joins(g, p, c, road) or joins(g, p, d, road) then return true end
  end
  return false
end

action {
  name = "louis",
  phases = AFTER_ROLL,
  syntax = "louis <path>",
  help = "Louis: take up one of your roads with a loose end and rebuild it free (then `road A-B`)",
  when = function(g, p) return own(g, p, "louis") end,
  options = function(g, p)
    local out = {}
    for _, road in ipairs(g:pieces_of(p, "road")) do
      if movable(g, p, road) then out[#out + 1] = road end
    end
    return out
  end,
  legal = function(g, p, road)
    if not movable(g, p, road) then
      return deny("Louis moves one of your roads whose one end touches none of your other pieces")
    end
    return true
  end,
  apply = function(g, p, road)
    mark_used(g, p)
    local a, b = g:ends(road)
    g:remove_piece("path", road)
    g:log(name(g, p) .. " takes up the road " .. a .. "-" .. b .. " to rebuild it (Louis)")
    g:pset(p, "helper_road", "louis")
    g:run("free_roads", p, 1)
  end,
}

-- William: a road with one of its resources substituted -----------------------------------

action {
  name = "william",
  phases = AFTER_ROLL,
  syntax = "william <resource> instead of <resource>",
  help = "William: build a road paying another resource instead of its brick or lumber, "
    .. "e.g. `william wool instead of brick` (then `road A-B`)",
  when = function(g, p) return own(g, p, "william") and g:supply(p, "road") > 0 end,
  options = function(g, p)
    local out, base, hand = {}, cost(g, "road", p), g:cards(p, "hand")
    if #g:open_paths(p) == 0 then return out end
    for _, instead in ipairs(RESOURCES) do
      for _, r in ipairs(RESOURCES) do
        local c = substitute(base, r, instead)
        if c and has(g, p, c, hand) then out[#out + 1] = { r, instead } end
      end
    end
    return out
  end,
  legal = function(g, p, r, instead)
    local c = substitute(cost(g, "road", p), r, instead)
    if not c then return deny("substitute one of the road's resources with another one") end
    if not has(g, p, c) then return deny("you cannot pay " .. cards_text(c)) end
    if #g:open_paths(p) == 0 then return deny("you have nowhere to build a road") end
    return true
  end,
  apply = function(g, p, r, instead)
    mark_used(g, p)
    local c = substitute(cost(g, "road", p), r, instead)
    pay(g, p, c)
    -- Building ends the trade phase (trade, then build).
    if g:phase() == "trade" then g:set_phase("build") end
    g:log(name(g, p) .. " pays " .. cards_text(c) .. " for a road (William)")
    g:pset(p, "helper_road", "william")
    g:run("free_roads", p, 1)
  end,
}

-- The road Louis or William owes: base's `done` may not skip it; once built, keep or exchange.
wrap_action("done", {
  when = function(original)
    return function(g, p) return original(g, p) and not g:pget(p, "helper_road") end
  end,
})

on("built", "helpers.road", function(g, e)
  if e.piece ~= "road" or g:phase() == "road_building" then return end
  local h = g:pget(e.seat, "helper_road")
  if h then
    g:pset(e.seat, "helper_road", nil)
    used(g, e.seat, h)
  end
end)

-- Marianne: a roll other than 7 that gives you nothing: 1 resource of your choice ----------

-- Production is resolved: Marianne's holder, left empty-handed, decides first (before the
-- roller can use a helper), at the end of the roll.
on("produced", "helpers.marianne", function(g, e)
  local q = holder(g, "marianne")
  if q and not e.got[q] and ready(g, q, "marianne") and #supply_resources(g) > 0 then
    g:set("helper_marianne", q)
  end
end)

on("rolled", "helpers.marianne_chance", function(g, e)
  local q = g:get("helper_marianne")
  if q then
    g:set("helper_marianne", nil)
    open(g, { kind = "marianne", seat = q, ret = g:phase() })
  end
end)

action {
  name = "marianne",
  phases = { "helpers" },
  syntax = "marianne <resource>",
  help = "Marianne: that roll gave you nothing: take 1 resource of your choice (or `skip`)",
  when = function(g, p) return in_window(g, p, "marianne") end,
  options = function(g, p) return supply_resources(g) end,
  legal = function(g, p, r)
    if g:count(nil, "bank", r) == 0 then return deny("the supply has no " .. r) end
    return true
  end,
  apply = function(g, p, r)
    g:move(nil, "bank", p, "hand", r, 1)
    g:log(name(g, p) .. " takes " .. r .. " (Marianne)")
    used(g, p, "marianne")
  end,
}

-- Sean: on any 7, keep your cards (more than 7) or take 1 resource (7 or fewer) -----------

local function over_limit(g, p) return hand_size(g, p) > g:option("discard_limit") end

-- Sean's holder decides before anyone discards; base resolves the 7 once they have.
wrap_hook("base.seven", function(original)
  resolve_seven = original
  return function(g, p, after)
    local q = holder(g, "sean")
    if q and ready(g, q, "sean") and (over_limit(g, q) or #supply_resources(g) > 0) then
      open(g, { kind = "sean", seat = q, seven = { seat = p, after = after } })
      return
    end
    original(g, p, after)
  end
end)

filter("discard_count", "helpers.sean", function(g, n, p)
  if g:pget(p, "helper_excused") == turn_key(g) then return 0 end
  return n
end)

action {
  name = "sean_keep",
  phases = { "helpers" },
  syntax = "sean",
  help = "Sean: a 7 with more than 7 cards in your hand: you do not discard (or `skip`)",
  when = function(g, p) return in_window(g, p, "sean") and over_limit(g, p) end,
  apply = function(g, p)
    g:pset(p, "helper_excused", turn_key(g))
    g:log(name(g, p) .. " keeps every card on this 7 (Sean)")
    used(g, p, "sean")
  end,
}

action {
  name = "sean_take",
  phases = { "helpers" },
  syntax = "sean <resource>",
  help = "Sean: a 7 with 7 cards or fewer in your hand: take 1 resource of your choice (or `skip`)",
  when = function(g, p) return in_window(g, p, "sean") and not over_limit(g, p) end,
  options = function(g, p) return supply_resources(g) end,
  legal = function(g, p, r)
    if g:count(nil, "bank", r) == 0 then return deny("the supply has no " .. r) end
    return true
  end,
  apply = function(g, p, r)
    g:move(nil, "bank", p, "hand", r, 1)
    g:log(name(g, p) .. " takes " .. r .. " on the 7 (Sean)")
    used(g, p, "sean")
  end,
}

-- Nassir: name a resource; one or two opponents each give you one; you give each a card back

local function nassir_legal(g, p, r, from)
  for i, q in ipairs(from) do
    if q == p then return deny("Nassir asks your opponents, not you") end
    if from[i + 1] == q then return deny("name two different opponents") end
  end
  return true
end

local function nassir(g, p, r, from)
  mark_used(g, p)
  g:log(name(g, p) .. " names " .. r .. " (Nassir)")
  local owed = {}
  for _, q in ipairs(from) do
    if g:count(q, "hand", r) > 0 then
      g:move(q, "hand", p, "hand", r, 1)
      owed[#owed + 1] = q
      g:log(name(g, q) .. " gives " .. name(g, p) .. " 1 " .. r)
    else
      g:log(name(g, q) .. " has no " .. r)
    end
  end
  if #owed > 0 then
    open(g, { kind = "nassir", seat = p, owed = owed, ret = g:phase() })
  else
    used(g, p, "nassir")
  end
end

action {
  name = "nassir",
  phases = TURN,
  syntax = "nassir <resource> from <player>",
  help = "Nassir: an opponent gives you 1 card of the resource you name, if they have one; "
    .. "you give a card of your choice back",
  when = function(g, p) return own(g, p, "nassir") end,
  options = function(g, p)
    local out = {}
    for _, r in ipairs(RESOURCES) do
      for q = 1, g:players() do
        if q ~= p then out[#out + 1] = { r, q } end
      end
    end
    return out
  end,
  legal = function(g, p, r, q) return nassir_legal(g, p, r, { q }) end,
  apply = function(g, p, r, q) nassir(g, p, r, { q }) end,
}

action {
  name = "nassir_two",
  phases = TURN,
  syntax = "nassir <resource> from <player> and <player>",
  help = "Nassir: two opponents each give you 1 card of the resource you name, if they have one",
  when = function(g, p) return own(g, p, "nassir") end,
  options = function(g, p)
    local out = {}
    for _, r in ipairs(RESOURCES) do
      for q = 1, g:players() do
        for s = q + 1, g:players() do
          if q ~= p and s ~= p then out[#out + 1] = { r, q, s } end
        end
      end
    end
    return out
  end,
  legal = function(g, p, r, q, s) return nassir_legal(g, p, r, { q, s }) end,
  apply = function(g, p, r, q, s) nassir(g, p, r, { q, s }) end,
}

action {
  name = "nassir_return",
  phases = { "helpers" },
  syntax = "return <resource> to <player>",
  help = "Nassir: give a player who gave you a card 1 resource card of your choice",
  when = function(g, p) return in_window(g, p, "nassir") end,
  options = function(g, p)
    local out, hand = {}, g:cards(p, "hand")
    for _, q in ipairs(window(g).owed) do
      for _, r in ipairs(RESOURCES) do
        if (hand[r] or 0) > 0 then out[#out + 1] = { r, q } end
      end
    end
    return out
  end,
  legal = function(g, p, r, q)
    if not contains(window(g).owed, q) then return deny(name(g, q) .. " gave you nothing") end
    if g:count(p, "hand", r) == 0 then return deny("you hold no " .. r) end
    return true
  end,
  apply = function(g, p, r, q)
    g:move(p, "hand", q, "hand", r, 1)
    g:log(name(g, p) .. " gives " .. name(g, q) .. " 1 " .. r .. " in return")
    local w = window(g)
    for i, s in ipairs(w.owed) do
      if s == q then table.remove(w.owed, i) break end
    end
    if #w.owed > 0 then
      g:set("helper_window", w)
    else
      used(g, p, "nassir")
    end
  end,
}

-- Vincent: discard a played knight to build a settlement or city cheaper -------------------

local function played_knight(g, p)
  for k in pairs(g:cards(p, "played")) do
    if KNIGHTS[k] then return k end
  end
end

local function vincent_when(g, p) return own(g, p, "vincent") and played_knight(g, p) ~= nil end

local function vincent_apply(piece)
  return function(g, p)
    g:pset(p, "helper_mode", { helper = "vincent", key = turn_key(g), piece = piece })
    g:log(name(g, p) .. " calls on Vincent: the next " .. piece .. " this turn for "
      .. cards_text(VINCENT[piece]) .. " and a played knight (`" .. piece .. " N`)")
  end
end

action {
  name = "vincent_settlement",
  phases = AFTER_ROLL,
  syntax = "vincent settlement",
  help = "Vincent: discard a played knight to build your next settlement for lumber and brick",
  when = vincent_when,
  legal = function(g, p)
    if g:supply(p, "settlement") == 0 then return deny("you have no settlement left") end
    if not has(g, p, VINCENT.settlement) then return deny("you cannot pay lumber and brick") end
    if #g:open_intersections(2, p) == 0 then return deny("you have nowhere to build a settlement") end
    return true
  end,
  apply = vincent_apply("settlement"),
}

action {
  name = "vincent_city",
  phases = AFTER_ROLL,
  syntax = "vincent city",
  help = "Vincent: discard a played knight to build your next city for 2 ore and grain",
  when = vincent_when,
  legal = function(g, p)
    if g:supply(p, "city") == 0 then return deny("you have no city left") end
    if g:piece_count(p, "settlement") == 0 then return deny("you have no settlement to upgrade") end
    if not has(g, p, VINCENT.city) then return deny("you cannot pay 2 ore and grain") end
    return true
  end,
  apply = vincent_apply("city"),
}

on("built", "helpers.vincent", function(g, e)
  local p = e.seat
  local m = mode(g, p)
  if not (m and m.helper == "vincent" and m.piece == e.piece) then return end
  g:pset(p, "helper_mode", nil)
  local k = played_knight(g, p)
  g:move(p, "played", nil, "box", k, 1)
  g:log(name(g, p) .. " discards a played knight (Vincent)")
  g:emit("knights_changed", { seat = p })
  used(g, p, "vincent")
end)

-- Candamir's and Vincent's prices --------------------------------------------------------

filter("cost", "helpers.cost", function(g, cards, what, p)
  local m = p and mode(g, p)
  if not m then return cards end
  if m.helper == "candamir" and what == "development" and m.instead then
    return substitute(cards, m.pay, m.instead) or cards
  elseif m.helper == "vincent" and what == m.piece then
    return copy(VINCENT[what])
  end
  return cards
end)

-- Evaluation (bots) -------------------------------------------------------------------------

-- Base's evaluation (docs/bots.md), plus a helper in front of a player: its power, worth a
-- little more than a development card in hand.
wrap_hook("base.evaluate", function(original)
  return function(g, v, p, ...)
    return original(g, v, p, ...) + 0.35 * g:count(p, "helper")
  end
end)
