-- Rivals for Catan: the end of the turn: replenishing, exchanging, winning; more exports.
-- Rulebook: Game Turn 3-4: Replenishing Your Hand, Exchanging a Card; The Goal & End of the Game.
-- A part of ../rivals.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local P, CENTER, MAX_STORE, RESOURCES = shared.P, shared.CENTER, shared.MAX_STORE, shared.RESOURCES
local STACKS, CARDS, EXPANSION_TYPE = shared.STACKS, shared.CARDS, shared.EXPANSION_TYPE
local card_text, copy, contains = shared.card_text, shared.copy, shared.contains
local other, name, title, cards_text = shared.other, shared.name, shared.title, shared.cards_text
local total, order_from, top = shared.total, shared.order_from, shared.top
local site_regions, region_sites, label = shared.site_regions, shared.region_sites, shared.label
local own, placed, holders, points = shared.own, shared.placed, shared.holders, shared.points
local hand_limit, stock, can_pay, pay = shared.hand_limit, shared.stock, shared.can_pay, shared.pay
local gain_text, combos, resources_only = shared.gain_text, shared.combos, shared.resources_only
local build_event_deck, draw_card = shared.build_event_deck, shared.draw_card
local roll_for_start, room, POSSIBLE = shared.roll_for_start, shared.room, shared.POSSIBLE
local advance, head, choice_done = shared.advance, shared.head, shared.choice_done
local start_resolution, in_hand = shared.start_resolution, shared.in_hand
local discard_card, my_turn, choosing = shared.discard_card, shared.my_turn, shared.choosing
local stack_index, stacks_for = shared.stack_index, shared.stacks_for
local may_go_under, removed_to = shared.may_go_under, shared.removed_to
local REMOVE_CHOICES, labels_of = shared.REMOVE_CHOICES, shared.labels_of
local cost_text, in_action, may_play = shared.cost_text, shared.in_action, shared.may_play
local nth_of_groups, nth_of_pairs = shared.nth_of_groups, shared.nth_of_pairs
local resolve, spend_choices, store_choices = shared.resolve, shared.spend_choices, shared.store_choices

-- End of the turn: replenish, exchange -------------------------------------------------------

local function any_stack(g)
  for _, s in ipairs(STACKS) do
    if g:count(nil, s) > 0 then return true end
  end
  return false
end

-- Replenishing Your Hand, then Exchanging a Card: which step comes next.
local function settle_hand(g, p)
  local n, lim = g:count(p, "hand"), hand_limit(g, p)
  if n > lim or (n < lim and not g:pget(p, "no_replenish") and any_stack(g)) then
    g:set_phase("replenish")
  else
    g:set_phase("exchange")
  end
end

local function end_turn(g)
  local p = g:current()
  g:pset(p, "no_replenish", nil)
  g:set("searching", nil)
  g:run("turn_end", p)
  local o = other(p)
  g:set_current(o)
  g:set_turn(g:turn() + 1)
  g:set("dice", nil)
  g:set_phase("roll")
  g:run("turn_begin", o)
end

action {
  name = "end",
  phases = { "action" },
  syntax = "end",
  help = "end your action phase: replenish your hand, exchange a card, and pass the turn",
  turn = true,
  apply = function(g, p)
    -- The Goal & End of the Game: 7 points at the end of your turn wins (nothing in the
    -- replenish and exchange steps changes points).
    local pts = points(g, p)
    if pts >= g:option("victory_points") then
      g:declare_winner(p)
      g:log(name(g, p) .. " wins with " .. pts .. " points!")
      g:emit("game_won", { seat = p })
      return
    end
    settle_hand(g, p)
  end,
}

local function stack_options(g)
  local out = {}
  for i, s in ipairs(STACKS) do
    if g:count(nil, s) > 0 then out[#out + 1] = i end
  end
  return out
end

action {
  name = "draw",
  phases = { "replenish", "exchange_take" },
  syntax = "draw <int>",
  help = "draw the top card of a draw stack, by its number (`show bank` counts them)",
  when = function(g, p)
    if not my_turn(g, p) then return false end
    if g:phase() == "replenish" then
      return g:count(p, "hand") < hand_limit(g, p) and not g:pget(p, "no_replenish")
    end
    return true
  end,
  options = stack_options,
  legal = function(g, p, n)
    local s = stack_index(n)
    if not s then return deny("the draw stacks are 1 to " .. #STACKS) end
    if g:count(nil, s) == 0 then return deny("draw stack " .. n .. " is empty") end
    return true
  end,
  apply = function(g, p, n)
    draw_card(g, p, stack_index(n))
    g:log(name(g, p) .. " draws a card from draw stack " .. n)
    if g:phase() == "replenish" then settle_hand(g, p) else end_turn(g) end
  end,
}

-- A card of your hand under one of the draw stacks: what `discard` and `exchange` list
-- and check.
local function hand_card_under_stack(g, p)
  local out = {}
  for k in pairs(g:cards(p, "hand")) do
    for _, i in ipairs(stacks_for(g, k)) do out[#out + 1] = { k, i } end
  end
  return out
end

-- The entry of hand_card_under_stack at x's place, counted instead of built (a bot's draw).
local function sample_hand_card_under_stack(g, p, x)
  local kinds, stacks = {}, {}
  for k in pairs(g:cards(p, "hand")) do kinds[#kinds + 1], stacks[#stacks + 1] = k, stacks_for(g, k) end
  local i, n = nth_of_groups(stacks, x)
  return i and { kinds[i], n } or nil
end

local function may_put_under_stack(g, p, kind, n)
  kind = kind:lower()
  if not CARDS[kind] then return deny("'" .. kind .. "' is not a card of this game (see `legal`)") end
  if not in_hand(g, p, kind) then return deny("you hold no " .. kind) end
  return may_go_under(g, kind, n)
end

action {
  name = "discard",
  phases = { "replenish" },
  syntax = "discard <word> under <int>",
  help = "over your hand limit: put a card under a draw stack",
  turn = true,
  when = function(g, p) return g:count(p, "hand") > hand_limit(g, p) end,
  options = hand_card_under_stack,
  sample = sample_hand_card_under_stack,
  legal = may_put_under_stack,
  apply = function(g, p, kind, n)
    kind = kind:lower()
    g:move_under(p, "hand", nil, stack_index(n), kind)
    g:log(name(g, p) .. " puts a card under draw stack " .. n)
    settle_hand(g, p)
  end,
}

-- Exchanging a Card from Your Hand: one card under a stack, then the top card of any stack,
-- or (paying 2 resources, 1 with a Parish Hall) a card of your choice from a stack.
action {
  name = "exchange",
  phases = { "exchange" },
  syntax = "exchange <word> under <int>",
  help = "put a card of your hand under a draw stack, then draw or search for a new one",
  turn = true,
  options = hand_card_under_stack,
  sample = sample_hand_card_under_stack,
  legal = may_put_under_stack,
  apply = function(g, p, kind, n)
    kind = kind:lower()
    g:move_under(p, "hand", nil, stack_index(n), kind)
    g:log(name(g, p) .. " puts a card under draw stack " .. n .. " to exchange it")
    g:set_phase("exchange_take")
  end,
}

action {
  name = "keep",
  phases = { "exchange" },
  syntax = "keep",
  help = "exchange no card: pass the turn",
  turn = true,
  apply = function(g, p) end_turn(g) end,
}

local function search_cost(g, p)
  local n = g:grid_count(p, P, "parish_hall") > 0 and 1 or 2
  return g:filter("search_cost", n, p)
end

action {
  name = "search",
  phases = { "exchange_take" },
  syntax = "search <int> paying <cards>",
  help = "pay 2 resources (1 with a Parish Hall) to look through a draw stack and take a card of your choice",
  turn = true,
  options = function(g, p)
    local out = {}
    local pays = combos(g, search_cost(g, p), stock(g, p))
    for _, i in ipairs(stack_options(g)) do
      for _, c in ipairs(pays) do out[#out + 1] = { i, c } end
    end
    return out
  end,
  -- The entry `options` lists at x's place, counted instead of built (a bot's draw).
  sample = function(g, p, x) return nth_of_pairs(stack_options(g), combos(g, search_cost(g, p), stock(g, p)), x) end,
  legal = function(g, p, n, paying)
    local s = stack_index(n)
    if not s then return deny("the draw stacks are 1 to " .. #STACKS) end
    if g:count(nil, s) == 0 then return deny("draw stack " .. n .. " is empty") end
    local k = search_cost(g, p)
    if not resources_only(paying) or total(paying) ~= k then return deny("searching a stack costs " .. k .. (k == 1 and " resource" or " resources")) end
    if not can_pay(g, p, paying) then return deny("you do not have " .. cards_text(paying)) end
    return true
  end,
  apply = function(g, p, n, paying)
    pay(g, p, paying)
    g:set("searching", n)
    g:set_phase("search")
    g:log(name(g, p) .. " pays " .. cards_text(paying) .. " to search draw stack " .. n)
    local list = {}
    for i, k in ipairs(g:cards(nil, stack_index(n))) do list[i] = title(k) end
    g:tell({ p }, "draw stack " .. n .. " (bottom to top): " .. table.concat(list, ", "))
  end,
}

action {
  name = "take",
  phases = { "search" },
  syntax = "take <word>",
  help = "take the card of your choice from the stack you searched (its order stays)",
  turn = true,
  options = function(g, p)
    local out, seen = {}, {}
    for _, k in ipairs(g:cards(nil, stack_index(g:get("searching")))) do
      if not seen[k] then seen[k] = true; out[#out + 1] = k end
    end
    table.sort(out)
    return out
  end,
  legal = function(g, p, kind)
    kind = kind:lower()
    if not CARDS[kind] then return deny("'" .. kind .. "' is not a card of this game (see `legal`)") end
    if g:count(nil, stack_index(g:get("searching")), kind) == 0 then
      return deny("draw stack " .. g:get("searching") .. " holds no " .. kind)
    end
    return true
  end,
  apply = function(g, p, kind)
    kind = kind:lower()
    g:move(nil, stack_index(g:get("searching")), p, "hand", kind)
    g:log(name(g, p) .. " takes a card from draw stack " .. g:get("searching"))
    g:tell({ p }, "you take " .. card_text(kind))
    end_turn(g)
  end,
}

-- More for child variants (the Theme Sets, rivals_theme.lua): the dice and the queue of
-- choices, the stacks, the turn, and the small helpers, so that a theme set calls these
-- instead of copying them.
for k, v in pairs({
  P = P, CENTER = CENTER, MAX_STORE = MAX_STORE, RESOURCES = RESOURCES, STACKS = STACKS,
  expansion_types = EXPANSION_TYPE, possible = POSSIBLE, remove_choices = REMOVE_CHOICES,
  roll_for_start = roll_for_start, start_resolution = start_resolution, advance = advance, head = head, choice_done = choice_done,
  choosing = choosing, build_event_deck = build_event_deck, draw_card = draw_card,
  stack_index = stack_index, stacks_for = stacks_for, may_go_under = may_go_under, removed_to = removed_to,
  points = points, placed = placed, holders = holders, room = room, own = own, top = top, label = label,
  labels_of = labels_of, site_regions = site_regions, region_sites = region_sites, can_pay = can_pay,
  in_hand = in_hand, discard_card = discard_card, may_play = may_play, my_turn = my_turn, end_turn = end_turn,
  combos = combos, resources_only = resources_only, total = total, copy = copy, contains = contains,
  cards_text = cards_text, gain_text = gain_text, cost_text = cost_text, title = title, name = name,
  other = other, order_from = order_from, resolve = resolve, spend_choices = spend_choices,
  store_choices = store_choices,
}) do
  rivals[k] = v
end

-- The text of a card for `help <card>` / `show card <card>`: its line, then the
-- clarification of the card index (`index`) when the card has one.
filter("card_text", "rivals.card_text", function(g, text, kind)
  local d = CARDS[kind]
  if not d then return text end
  local t = card_text(kind)
  if d.index then t = t .. "\n" .. d.index end
  return t
end)
