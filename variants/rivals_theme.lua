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
    { name = "stack5", owner = "game", stack = true, visibility = "hidden" },
    -- Preparation 2: the face-up expansion card stack, looked through by both players.
    { name = "faceup", owner = "game", visibility = "public" },
    -- Preparation 6: only the face-up top card of the discard pile is visible.
    { name = "discard", owner = "game", stack = true, visibility = "top" },
  },
  secret_actions = { "select" },
  options = {
    { name = "victory_points", type = "int", default = 12, min = 3, max = 30,
      doc = "points that win at once during your own turn (End of the Game)" },
  },
}

local R = rivals
local CARDS, P = R.cards, R.P
local name, title, other, contains = R.name, R.title, R.other, R.contains

-- Preparation 3: stacks 1-3 have the Basic Set back, 4 and 5 the theme set's.
R.STACKS[5] = "stack5"
local BASIC_STACKS, THEME_STACKS = { 1, 2, 3 }, { 4, 5 }
R.edit_zones[#R.edit_zones + 1] = "faceup"

-- The theme set being played (one per game), declared by its file.
local THEME

-- Declares the theme set: `name`, `events` ({ kind = copies } added to the Basic Set's),
-- `draw` ({ kind = copies } shuffled into the 2 theme stacks, which must be even), `faceup`
-- ({ kind = copies }). Cards new in the set are declared with rivals.card/rivals.expansion
-- and `copies = 0` (they are not Basic Set draw cards).
function R.theme_set(def)
  assert(type(def.name) == "string", "a theme set needs a name")
  for _, part in ipairs({ "events", "draw", "faceup" }) do
    def[part] = def[part] or {}
    for kind in pairs(def[part]) do
      if not CARDS[kind] then error("theme set " .. def.name .. ": no card named " .. kind, 2) end
    end
  end
  THEME = def
  R.theme = def
end

local function is_basic(kind)
  local d = CARDS[kind]
  return d ~= nil and (d.copies or 0) > 0 and d.type ~= "event"
end

local function is_faceup(kind) return THEME ~= nil and (THEME.faceup[kind] or 0) > 0 end

-- Other Rules 5: the stacks whose back matches the card's. A face-up card has no stack: it
-- returns to the face-up stack whatever stack is named (removed_to), so every stack is
-- offered for it.
filter("under_stacks", "rivals_theme.backs", function(g, list, kind)
  if not THEME or is_faceup(kind) then return list end
  local out = {}
  if is_basic(kind) then
    for _, i in ipairs(BASIC_STACKS) do out[#out + 1] = i end
  end
  if (THEME.draw[kind] or 0) > 0 then
    for _, i in ipairs(THEME_STACKS) do out[#out + 1] = i end
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

wrap_hook("rivals.stacks", function(original)
  return function(g)
    if not THEME then error("rivals_theme is the Theme Games' rules: play a theme set, e.g. --variant rivals_gold", 0) end
    original(g)
    -- The Introductory set-up dealt the shuffled Basic Set draw cards onto every stack:
    -- those of the theme stacks go onto the smallest Basic Set stack, one by one, which
    -- makes 3 shuffled stacks of 12.
    for _, t in ipairs(THEME_STACKS) do
      while g:count(nil, R.STACKS[t]) > 0 do
        local to = BASIC_STACKS[1]
        for _, b in ipairs(BASIC_STACKS) do
          if g:count(nil, R.STACKS[b]) < g:count(nil, R.STACKS[to]) then to = b end
        end
        g:draw(nil, R.STACKS[t], nil, R.STACKS[to])
      end
    end
    local theme = {}
    for kind, n in pairs(THEME.draw) do
      for _ = 1, n do theme[#theme + 1] = kind end
    end
    theme = g:shuffled(theme)
    local half = #theme // 2
    for i, kind in ipairs(theme) do g:create(nil, i <= half and "stack4" or "stack5", kind, 1) end
    for kind, n in pairs(THEME.faceup) do g:create(nil, "faceup", kind, n) end
    for kind, n in pairs(THEME.events) do g:create(nil, "revealed", kind, n) end
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
    g:log(name(g, p) .. " chooses stack " .. n .. " for the starting cards")
    local list = {}
    for i, k in ipairs(g:cards(nil, R.STACKS[n])) do list[i] = title(k) end
    g:tell({ p }, "stack " .. n .. " (bottom to top): " .. table.concat(list, ", "))
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
    if g:count(nil, R.STACKS[n], kind) == 0 then return deny("stack " .. n .. " holds no " .. kind) end
    return true
  end,
  apply = function(g, p, kind, n)
    kind = kind:lower()
    g:move(nil, R.STACKS[n], p, "hand", kind)
    g:pset(p, "select_stack", n)
    g:tell({ p }, "you take " .. R.card_text(kind))
    if g:count(p, "hand") < 3 then return end
    g:log(name(g, p) .. " takes 3 starting cards from stack " .. n)
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

action {
  name = "rearrange",
  phases = { "rearrange" },
  syntax = "rearrange <slot> <slot>",
  help = "swap two of your regions (with what they store) before the game begins",
  when = selecting,
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
    g:swap_slots(p, P, ra, ca, rb, cb)
    g:log(name(g, p) .. " swaps the regions on " .. a .. " and " .. b)
  end,
}

action {
  name = "ready",
  phases = { "rearrange" },
  syntax = "ready",
  help = "your regions are arranged: the game goes on",
  when = selecting,
  apply = function(g, p)
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
end)

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

-- Starts resolving a list of choices from an action (a card played or built): the phase
-- becomes "choose" until they are made, then "action" again.
function R.resolve(g, choices)
  if #choices == 0 then return end
  local q = g:get("queue") or {}
  for _, c in ipairs(choices) do q[#q + 1] = c end
  g:set("queue", q)
  R.advance(g)
end

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
    for _, c in ipairs(R.combos(n, have)) do out[#out + 1] = c end
  end
  return out
end

function R.can_demand(g, p, want)
  local n = R.total(want)
  if not R.resources_only(want) or n < 1 or n > 2 then return deny("name 1 or 2 resources") end
  if not R.can_pay(g, other(p), want) then return deny(name(g, other(p)) .. " does not have " .. R.cards_text(want)) end
  return true
end
