-- Rivals for Catan: the general rules of the Theme Games, for every theme set
-- (../shared/rules/004, "PLAYING THE THEME GAMES": General Rules, Other Rules Additions,
-- End of the Game). Not a game by itself: a theme set is a file that extends this one and
-- declares its cards and its stacks with `rivals.theme_set { ... }` (rivals_gold.lua is
-- The Era of Gold; a fourth set is written the same way).
--
-- What it changes in the Introductory Game (rivals.lua), through rivals.lua's hooks:
--   Preparation 1     the event deck: the Basic Set events plus the set's, Yule 4th from
--                     the bottom (rivals.stacks wrapped, rivals.build_event_deck)
--   Preparation 2     the face-up expansion stack (zone `faceup`), built from by either
--                     player (filter build_from), a card of it returns to it when removed
--                     (filter removed_to); its cards are all "1x"
--   Preparation 3     3 Basic Set draw stacks of 12 (stack1-3) and 2 theme stacks of equal
--                     size (stack4-5)
--   Preparation 4-5   starting hands chosen (`look 2`, then `select scout from 2`, 3 times), then each may
--                     rearrange the 6 regions (`rearrange K2 O2`, `ready`)
--   Preparation 6     only the top card of the discard pile is seen (visibility "top")
--   Other Rules 1-2   city expansions (placement "city") and region expansions ("region")
--                     are rivals.lua's placements
--   Other Rules 3     `remove K1`: one own building or unit, free, in the action phase
--   Other Rules 4     requirements (`requires`) are checked for both players by each card
--   Other Rules 5     a card goes under a stack with the same back (filter under_stacks);
--                     an emptied stack's place stays usable
--   End of the Game   12 points during your own turn win at once (also before the roll);
--                     the victory points of city expansions count (their `vp`)
--
-- Card backs: a kind in the Basic Set's draw cards has the Basic back, a kind in the set's
-- draw stacks the set's back. The four kinds that are in both (in the Era of Gold: Goldsmith,
-- Storehouse, Toll Bridge, Large Trade Ship) are counted, not told apart, so a card of those
-- kinds may go under a stack of either back.

variant {
  extends = "rivals",
  description = "Rivals for Catan: the general rules of the Theme Games (load a theme set such as "
    .. "rivals_gold, which extends this).",
  zones = {
    { name = "stack5", owner = "game", stack = true, visibility = "hidden", title = "draw stack 5" },
    -- Preparation 2: the face-up expansion card stack, looked through by both players.
    { name = "faceup", owner = "game", visibility = "public", title = "face-up expansion stack" },
    -- Preparation 6: only the face-up top card of the discard pile is visible.
    { name = "discard", owner = "game", stack = true, visibility = "top", title = "discard pile" },
  },
  cards = {
    -- In more than one theme set (The Era of Gold and The Era of Turmoil).
    action = { "brigands" },
  },
  secret_actions = { "select" },
  -- Each swap is told to its player; `ready` tells everyone the net result once.
  quiet_actions = { "rearrange" },
  options = {
    { name = "victory_points", type = "int", default = 12, min = 3, max = 30,
      doc = "points that win at once during your own turn (End of the Game)" },
  },
}

local R = rivals
local CARDS, P = R.cards, R.P
local name, title, other, contains = R.name, R.title, R.other, R.contains

-- Preparation 3: stacks 1-3 have the Basic Set back, 4 and 5 the theme set's (in The Duel
-- of the Princes, stacks 4, 5 and 6 one theme set's each: rivals_duel.lua).
R.STACKS[5] = "stack5"
local BASIC_STACKS = { 1, 2, 3 }
R.edit_zones[#R.edit_zones + 1] = "faceup"

-- The theme sets of the stack, in load order: one in a Theme Game, all three in the Duel.
local SETS = {}
R.themes = SETS
-- The Duel of the Princes (rivals_duel.lua sets it): one theme stack per set, no face-up
-- stack, the half-moon cards out of play.
local function duel() return R.duel_rules ~= nil end

-- Actions that more than one theme set needs (the Brigands, `yield`, `build ... saving`)
-- are declared by the first set that asks for them (`R.use(what)`), so that a game lists
-- only the actions of its own sets.
local SHARED_ACTIONS = {}
local used = {}
function R.use(what)
  if used[what] then return end
  if not SHARED_ACTIONS[what] then error("no shared theme action '" .. tostring(what) .. "'", 2) end
  used[what] = true
  SHARED_ACTIONS[what]()
end

-- Declares the theme set: `name`, `events` ({ kind = copies } added to the Basic Set's),
-- `draw` ({ kind = copies } shuffled into the 2 theme stacks, which must be even), `faceup`
-- ({ kind = copies }), `half_moon` ({ kind = copies } of its draw, face-up and event cards
-- marked with the half moon: out of play, or in the Duel's event pool). Cards new in the
-- set are declared with rivals.card/rivals.expansion and `copies = 0` (they are not Basic
-- Set draw cards).
function R.theme_set(def)
  assert(type(def.name) == "string", "a theme set needs a name")
  for _, part in ipairs({ "events", "draw", "faceup", "half_moon" }) do
    def[part] = def[part] or {}
    for kind in pairs(def[part]) do
      if not CARDS[kind] then error("theme set " .. def.name .. ": no card named " .. kind, 2) end
    end
  end
  SETS[#SETS + 1] = def
  R.theme = def
  if (def.draw.brigands or 0) > 0 then R.use("brigands") end
end

local function is_basic(kind)
  local d = CARDS[kind]
  return d ~= nil and (d.copies or 0) > 0 and d.type ~= "event"
end

local function is_faceup(kind)
  if duel() then return false end
  for _, set in ipairs(SETS) do
    if (set.faceup[kind] or 0) > 0 then return true end
  end
  return false
end

-- The stacks with the back of theme set number i: 4 and 5 in a Theme Game, 3 + i in the Duel.
local function theme_stacks(i)
  if duel() then return { 3 + i } end
  return { 4, 5 }
end

-- Whether the cards of `kind` of a set are in its draw stacks.
local function in_draw(set, kind)
  if (set.draw[kind] or 0) > 0 then return true end
  return duel() and (set.faceup[kind] or 0) > 0
end

-- Other Rules 5: the stacks whose back matches the card's. A face-up card has no stack: it
-- returns to the face-up stack whatever stack is named (removed_to), so every stack is
-- offered for it.
filter("under_stacks", "rivals_theme.backs", function(g, list, kind)
  if #SETS == 0 or is_faceup(kind) then return list end
  local out = {}
  if is_basic(kind) then
    for _, i in ipairs(BASIC_STACKS) do out[#out + 1] = i end
  end
  for i, set in ipairs(SETS) do
    if in_draw(set, kind) then
      for _, n in ipairs(theme_stacks(i)) do out[#out + 1] = n end
    end
  end
  if #out == 0 then return list end
  return out
end)

-- Other Rules 3: a card of the face-up expansion stack returns to it.
filter("removed_to", "rivals_theme.return_faceup", function(g, to, kind)
  if is_faceup(kind) then return "faceup" end
  return to
end)

filter("build_from", "rivals_theme.build_faceup", function(g, zones) zones[#zones + 1] = "faceup"; return zones end)

-- Preparation 1-3 ----------------------------------------------------------------------------

-- `copies` of each kind, less the half-moon copies when `out` is given (the Duel), as a
-- list of kinds.
local function kinds_list(copies, out)
  local list = {}
  for kind, n in pairs(copies) do
    for _ = 1, n - (out and (out[kind] or 0) or 0) do list[#list + 1] = kind end
  end
  table.sort(list)
  return list
end

wrap_hook("rivals.stacks", function(original)
  return function(g)
    if #SETS == 0 then error("rivals_theme is the Theme Games' rules: play a theme set, e.g. --variant rivals_gold", 0) end
    if #SETS > 1 and not duel() then
      error("a Theme Game has one theme set; The Duel of the Princes (rivals_duel) combines them", 0)
    end
    original(g)
    -- The Introductory set-up dealt the shuffled Basic Set draw cards onto every stack:
    -- those of the theme stacks go onto the smallest Basic Set stack, one by one, which
    -- makes 3 shuffled stacks of 12.
    for t = 4, #R.STACKS do
      while g:count(nil, R.STACKS[t]) > 0 do
        local to = BASIC_STACKS[1]
        for _, b in ipairs(BASIC_STACKS) do
          if g:count(nil, R.STACKS[b]) < g:count(nil, R.STACKS[to]) then to = b end
        end
        g:draw(nil, R.STACKS[t], nil, R.STACKS[to])
      end
    end
    if duel() then
      R.duel_rules.stacks(g, kinds_list)
      return
    end
    local theme = SETS[1]
    local cards = g:shuffled(kinds_list(theme.draw))
    local half = #cards // 2
    for i, kind in ipairs(cards) do g:create(nil, i <= half and "stack4" or "stack5", kind, 1) end
    for kind, n in pairs(theme.faceup) do g:create(nil, "faceup", kind, n) end
    for kind, n in pairs(theme.events) do g:create(nil, "revealed", kind, n) end
    R.build_event_deck(g)
  end
end)

-- Preparation 4-5: starting hands, then rearranging the regions ------------------------------

local function setup_seat(g) return g:get("setup_seat") end

filter("to_act", "rivals_theme.to_act", function(g, seat)
  local ph = g:phase()
  if ph == "select" or ph == "rearrange" then return setup_seat(g) end
  return seat
end)

replace_hook("rivals.start", function(g)
  local first = R.roll_for_start(g)
  g:set_current(first)
  g:set("setup_seat", first)
  g:set_phase("select")
  g:log(name(g, first) .. " chooses a Basic Set draw stack (`look 2`) and 3 cards of it (`select scout from 2`)")
end)

local function selecting(g, p) return p == setup_seat(g) end

-- Choosing the Starting Cards: first the stack (its cards are shown to the chooser only),
-- then 3 of its cards.
action {
  name = "look",
  phases = { "select" },
  syntax = "look <int>",
  help = "choose the Basic Set draw stack (1-3) your 3 starting cards come from, and look through it",
  when = function(g, p) return selecting(g, p) and not g:pget(p, "select_stack") end,
  options = function() return BASIC_STACKS end,
  legal = function(g, p, n)
    if not contains(BASIC_STACKS, n) then return deny("starting cards come from a Basic Set draw stack (1-3)") end
    return true
  end,
  apply = function(g, p, n)
    g:pset(p, "select_stack", n)
    g:log(name(g, p) .. " chooses draw stack " .. n .. " for the starting cards")
    local list = {}
    for i, k in ipairs(g:cards(nil, R.STACKS[n])) do list[i] = title(k) end
    g:tell({ p }, "draw stack " .. n .. " (bottom to top): " .. table.concat(list, ", "))
  end,
}

action {
  name = "select",
  phases = { "select" },
  syntax = "select <word> from <int>",
  help = "choose a starting card from a Basic Set draw stack (3 cards, all from one stack; its order stays)",
  when = function(g, p) return selecting(g, p) and g:pget(p, "select_stack") ~= nil end,
  options = function(g, p)
    local from = g:pget(p, "select_stack")
    local out, seen = {}, {}
    for _, k in ipairs(g:cards(nil, R.STACKS[from])) do
      if not seen[k] then seen[k] = true; out[#out + 1] = { k, from } end
    end
    table.sort(out, function(a, b) return a[1] < b[1] end)
    return out
  end,
  legal = function(g, p, kind, n)
    kind = kind:lower()
    local from = g:pget(p, "select_stack")
    if from ~= n then return deny("all 3 starting cards come from the stack you chose (" .. from .. ")") end
    if g:count(nil, R.STACKS[n], kind) == 0 then return deny("draw stack " .. n .. " holds no " .. kind) end
    return true
  end,
  apply = function(g, p, kind, n)
    kind = kind:lower()
    g:move(nil, R.STACKS[n], p, "hand", kind)
    g:pset(p, "select_stack", n)
    g:tell({ p }, "you take " .. R.card_text(kind))
    if g:count(p, "hand") < 3 then return end
    g:log(name(g, p) .. " takes 3 starting cards from draw stack " .. n)
    g:pset(p, "select_stack", nil)
    local first = g:get("starting_player")
    if p == first then
      g:set("setup_seat", other(p))
    else
      g:set("setup_seat", first)
      g:set_phase("rearrange")
      g:log("each player may rearrange their regions (`rearrange K2 O2`), then `ready`")
    end
  end,
}

-- Any order of the 6 regions is at most 5 swaps away from any other, so 10 swaps a player
-- lose nothing and keep a bot (which sees no difference between arrangements) from
-- swapping for ever before it says `ready`.
local MAX_SWAPS = 10

-- Which region stands on each of p's region labels.
local function arrangement(g, p)
  local out = {}
  for _, s in ipairs(R.regions(g, p)) do out[s.label] = s.card end
  return out
end

action {
  name = "rearrange",
  phases = { "rearrange" },
  syntax = "rearrange <slot> <slot>",
  help = "swap two of your regions (with what they store) before the game begins (up to 10 swaps)",
  when = function(g, p) return selecting(g, p) and (g:pget(p, "swaps") or 0) < MAX_SWAPS end,
  options = function(g, p)
    local regs, out = R.regions(g, p), {}
    for i = 1, #regs do
      for j = i + 1, #regs do out[#out + 1] = { regs[i].label, regs[j].label } end
    end
    return out
  end,
  legal = function(g, p, a, b)
    local ra, ca = R.own(g, p, a)
    local rb, cb = R.own(g, p, b)
    local da, db = ra and CARDS[R.top(g, p, ra, ca) or ""], rb and CARDS[R.top(g, p, rb, cb) or ""]
    if a == b or not da or not db or da.type ~= "region" or db.type ~= "region" then
      return deny("name two of your regions")
    end
    return true
  end,
  apply = function(g, p, a, b)
    local ra, ca = R.own(g, p, a)
    local rb, cb = R.own(g, p, b)
    -- The arrangement before the first swap, for `ready` to tell what changed in all.
    if not g:pget(p, "arranged") then g:pset(p, "arranged", arrangement(g, p)) end
    g:swap_slots(p, P, ra, ca, rb, cb)
    g:pset(p, "swaps", (g:pget(p, "swaps") or 0) + 1)
    g:tell({ p }, "you swap the regions on " .. a .. " and " .. b)
  end,
}

-- The net result of a player's swaps, once: the regions that stand elsewhere now.
local function tell_rearranged(g, p)
  local before = g:pget(p, "arranged")
  if not before then return end
  g:pset(p, "arranged", nil)
  local now, moved = arrangement(g, p), {}
  for _, s in ipairs(R.regions(g, p)) do
    if before[s.label] ~= now[s.label] then moved[#moved + 1] = title(now[s.label]) .. " to " .. s.label end
  end
  if #moved == 0 then
    g:log(name(g, p) .. " keeps the regions as they were")
  else
    g:log(name(g, p) .. " rearranges the regions: " .. table.concat(moved, ", "))
  end
end

action {
  name = "ready",
  phases = { "rearrange" },
  syntax = "ready",
  help = "your regions are arranged: the game goes on",
  when = selecting,
  apply = function(g, p)
    g:pset(p, "swaps", nil)
    tell_rearranged(g, p)
    local first = g:get("starting_player")
    if p == first then
      g:set("setup_seat", other(p))
      return
    end
    g:set("setup_seat", nil)
    g:set_current(first)
    g:set_turn(1)
    g:set_phase("roll")
    g:run("turn_begin", first)
  end,
}

-- Other Rules 3: removing one of your buildings or units -------------------------------------

-- `options` and `legal` of an action whose one argument is one of the labels `list(g, p)`
-- gives; a refusal says `what` and lists them.
function R.one_of(list, what)
  local function legal(g, p, lbl)
    local l = list(g, p)
    if not contains(l, lbl) then return deny(what .. ": " .. table.concat(l, ", ")) end
    return true
  end
  return list, legal
end

local function removable(g, p)
  local out = {}
  for _, s in ipairs(R.expansions(g, p)) do out[#out + 1] = s.label end
  return out
end

action {
  name = "remove_own",
  phases = { "action" },
  syntax = "remove <slot>",
  help = "remove one of your buildings or units, free (once in your action phase); a face-up stack card returns to it",
  when = function(g, p) return R.my_turn(g, p) and g:pget(p, "removed_turn") ~= g:turn() end,
  options = removable,
  legal = select(2, R.one_of(removable, "name one of your buildings or units (an expansion card)")),
  apply = function(g, p, lbl)
    local r, c = R.own(g, p, lbl)
    local kind = R.top(g, p, r, c)
    local to = R.removed_to(g, kind, "discard")
    g:take_card(p, P, r, c, nil, to)
    g:pset(p, "removed_turn", g:turn())
    g:log(name(g, p) .. " removes " .. title(kind) .. " from " .. lbl
      .. (to == "faceup" and " (back to the face-up stack)" or " (to the discard pile)"))
  end,
}

-- End of the Game: 12 points during your own turn win at once ---------------------------------
-- Checked after every action (after the advantages are updated), for the player whose turn
-- it is: that covers a build, an opponent's choice during your turn, and the start of your
-- turn before you roll.

sequence("after_action", "rivals_theme.victory", function(g)
  if g:winner() or g:phase() == "select" or g:phase() == "rearrange" then return end
  local p = g:current()
  local pts = R.points(g, p)
  if pts >= g:option("victory_points") then
    g:declare_winner(p)
    g:log(name(g, p) .. " wins with " .. pts .. " points!")
    g:emit("game_won", { seat = p })
  end
end, { when_changed = true }) -- run again only once something it read has changed

-- Shared by the theme sets ------------------------------------------------------------------

-- Units that are not trade ships (the Pirate Ship, the Chief Cannoneer) and extraordinary
-- sites (the Gold Cache) are expansion cards: removable, relocatable, counted in a
-- principality.
R.expansion_types.unit = true
R.expansion_types.site = true

function R.has(g, p, kind) return g:grid_count(p, P, kind) > 0 end

-- An action card's action: playable in your action phase with the card in hand; its
-- requirement (Other Rules Additions 4) is checked first, so a refusal says what is missing,
-- and with it unmet nothing is listed. `def.options` defaults to no arguments.
function R.card_action(kind, def)
  local options, legal = def.options, def.legal or function() return true end
  local function meets(g, p)
    local req = CARDS[kind].requires
    if not req then return true end
    return req(g, p)
  end
  def.phases = def.phases or { "action" }
  def.when = def.when or function(g, p) return R.my_turn(g, p) and R.in_hand(g, p, kind) end
  if options then
    def.options = function(g, p)
      if not meets(g, p) then return {} end
      return options(g, p)
    end
  end
  def.legal = function(g, p, ...)
    local ok, why = meets(g, p)
    if not ok then return deny(why) end
    return legal(g, p, ...)
  end
  action(def)
end

-- Brigands (The Era of Gold and The Era of Turmoil): with the strength advantage, name one
-- of your regions; the opponent gives as much of its resource as it can still hold.
R.card({ name = "brigands", type = "action", text = "with the strength advantage: name one of your regions; "
  .. "your opponent gives you as many of its resource as it can still hold",
  index = "Brigands: only with the strength advantage. The opponent chooses the regions the resources come from.",
  requires = function(g, p)
    if g:get("hero") ~= p then return false, "the Brigands need the strength advantage" end
    return true
  end })

-- The regions of yours that can still hold a resource the opponent has.
local function brigand_targets(g, p)
  local have, out = R.stock(g, other(p)), {}
  for _, s in ipairs(R.regions(g, p)) do
    local n = math.min(R.MAX_STORE - s.store, have[s.def.resource])
    if n > 0 then out[#out + 1] = s.label end
  end
  return out
end

SHARED_ACTIONS.brigands = function()
  R.card_action("brigands", {
    name = "play_brigands",
    syntax = "play brigands <slot>",
    help = "play the Brigands (strength advantage): name one of your regions; your opponent gives you as many of its resource as it can still hold",
    options = brigand_targets,
    legal = select(2, R.one_of(brigand_targets, "name one of your regions with room for a resource your opponent has")),
    apply = function(g, p, lbl)
      local r, c = R.own(g, p, lbl)
      local res = CARDS[R.top(g, p, r, c)].resource
      local n = math.min(R.MAX_STORE - g:store(p, P, r, c), R.stock(g, other(p))[res])
      R.discard_card(g, p, "brigands")
      g:log(name(g, p) .. " plays the Brigands: " .. name(g, other(p)) .. " gives " .. R.cards_text({ [res] = n }))
      R.resolve(g, R.demand(g, p, { [res] = n }))
    end,
  })
  R.use("yield")
end

-- Building for 1 resource less of your choice (the Drill Ground for heroes, the Building
-- Crane for dear city expansions): each entry of `R.savings` is fn(g, p, kind) -> true
-- when one applies; `build abbey L2 saving ore` then builds from the hand or the face-up
-- stack paying the cost without 1 ore. At most one resource is saved per card.
R.savings = {}

-- A set's way to build for less: fn(g, p, kind) -> true when it applies.
function R.add_saving(fn)
  R.savings[#R.savings + 1] = fn
  R.use("saving")
end

local function saving_applies(g, p, kind)
  for _, f in ipairs(R.savings) do
    if f(g, p, kind) then return true end
  end
  return false
end

local function saved_cost(g, p, kind, r)
  local c = R.cost(g, kind, p)
  if (c[r] or 0) == 0 then return nil end
  c[r] = c[r] - 1
  return c
end

local function source_of(g, p, kind)
  if R.in_hand(g, p, kind) then return p, "hand" end
  for _, z in ipairs(g:filter("build_from", {}, p)) do
    if g:count(nil, z, kind) > 0 then return nil, z end
  end
end

local function may_build_saving(g, p, kind, r)
  local d = CARDS[kind]
  if not d or not d.placement then return false, "a " .. title(kind) .. " is not an expansion card" end
  if not select(2, source_of(g, p, kind)) then return false, "you hold no " .. title(kind) end
  if not saving_applies(g, p, kind) then return false, "nothing lets you build a " .. title(kind) .. " for less" end
  if d.one_x and R.has(g, p, kind) then return false, "you may have only one " .. title(kind) end
  if d.requires then
    local ok, why = d.requires(g, p)
    if not ok then return false, why end
  end
  local c = saved_cost(g, p, kind, r)
  if not c then return false, "a " .. title(kind) .. " costs no " .. r end
  if not R.can_pay(g, p, c) then return false, "a " .. title(kind) .. " costs " .. R.cost_text(c) end
  return true, c
end

local function saving_sites(g, p, kind) return R.labels_of(g, p, R.sites(g, p, kind)) end

SHARED_ACTIONS.saving = function()
  action {
    name = "build_saving",
    phases = { "action" },
    syntax = "build <word> <slot> saving <resource>",
    help = "build an expansion card for 1 resource less of your choice (Drill Ground: heroes; Building Crane: city expansions costing more than 4)",
    when = function(g, p) return R.my_turn(g, p) and #R.savings > 0 end,
    options = function(g, p)
      local out, kinds = {}, {}
      for kind in pairs(g:cards(p, "hand")) do kinds[#kinds + 1] = kind end
      for _, z in ipairs(g:filter("build_from", {}, p)) do
        for kind in pairs(g:cards(nil, z)) do kinds[#kinds + 1] = kind end
      end
      table.sort(kinds)
      local seen = {}
      for _, kind in ipairs(kinds) do
        if not seen[kind] then
          seen[kind] = true
          for _, r in ipairs(R.RESOURCES) do
            if may_build_saving(g, p, kind, r) then
              for _, l in ipairs(saving_sites(g, p, kind)) do out[#out + 1] = { kind, l, r } end
            end
          end
        end
      end
      return out
    end,
    legal = function(g, p, kind, lbl, r)
      kind = kind:lower()
      local ok, why = may_build_saving(g, p, kind, r)
      if not ok then return deny(why) end
      if not contains(saving_sites(g, p, kind), lbl) then
        return deny(lbl .. " is not an empty building site for a " .. title(kind) .. " (see `legal`)")
      end
      return true
    end,
    apply = function(g, p, kind, lbl, r)
      kind = kind:lower()
      local _, c = may_build_saving(g, p, kind, r)
      local row, col = R.own(g, p, lbl)
      R.pay(g, p, c)
      local owner, zone = source_of(g, p, kind)
      g:place_card(owner, zone, p, P, row, col, kind)
      g:log(name(g, p) .. " builds " .. title(kind) .. " on " .. lbl .. ", saving 1 " .. r)
      local d = CARDS[kind]
      if d.on_build then d.on_build(g, p, row, col) end
      g:emit("built", { seat = p, card = kind, slot = lbl })
    end,
  }
end

-- Theme sets: the queue's "yield" choice ------------------------------------------------------
-- Attacks of the theme sets make the opponent give resources; the giver chooses the regions
-- they come from (Card Index, e.g. Brigands: "The opponent decides which regions"). A
-- `yield` choice: task.seat gives 1 (of task.resource, or any) from a region of their own to
-- the other player.

local function yield_sources(g, p, task)
  local out = {}
  for _, s in ipairs(R.holders(g, p, task.resource)) do
    if s.store > 0 then out[#out + 1] = s.label end
  end
  return out
end

R.possible.yield = function(g, task) return #yield_sources(g, task.seat, task) > 0 end

SHARED_ACTIONS.yield = function()
  action {
    name = "yield",
    phases = { "choose" },
    syntax = "yield <slot>",
    help = "give one resource, from the region (or Gold Cache) you name, to your opponent",
    when = function(g, p) return R.choosing(g, p, { yield = true }) ~= nil end,
    options = function(g, p) return yield_sources(g, p, R.head(g)) end,
    legal = select(2, R.one_of(function(g, p) return yield_sources(g, p, R.head(g)) end,
      "give the resource asked for from one of your regions holding it")),
    apply = function(g, p, lbl)
      local r, c = R.own(g, p, lbl)
      local res = CARDS[R.top(g, p, r, c)].resource
      g:set_store(p, P, r, c, g:store(p, P, r, c) - 1)
      local got = R.gain(g, other(p), res, 1)
      g:log(name(g, p) .. " gives " .. res .. " from " .. lbl .. " to " .. name(g, other(p))
        .. (got == 0 and " (lost: no room)" or ""))
      R.choice_done(g)
    end,
  }
end

-- (R.resolve, which starts resolving a list of choices from an action, is rivals.lua's:
-- the Basic Set's Goldsmith needs it too.)

-- 1 or 2 resources of the opponent's, named by type: the yield choices for them.
function R.demand(g, p, want)
  local out = {}
  for _, r in ipairs(R.RESOURCES) do
    for _ = 1, want[r] or 0 do out[#out + 1] = R.choice(other(p), "yield", { resource = r }) end
  end
  return out
end

-- The multisets of 1 or 2 resources the opponent of p holds (what Merchant and Trade Master
-- may demand).
function R.demands(g, p)
  local have, out = R.stock(g, other(p)), {}
  for _, n in ipairs({ 1, 2 }) do
    for _, c in ipairs(R.combos(g, n, have)) do out[#out + 1] = c end
  end
  return out
end

function R.can_demand(g, p, want)
  local n = R.total(want)
  if not R.resources_only(want) or n < 1 or n > 2 then return deny("name 1 or 2 resources") end
  if not R.can_pay(g, other(p), want) then return deny(name(g, other(p)) .. " does not have " .. R.cards_text(want)) end
  return true
end
