-- Rivals for Catan: the roll, Brigitta, and the choices while the dice are resolved.
-- Rulebook: Game Turn 1: Rolling the Dice.
-- A part of ../rivals.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local P, RESOURCES, STACKS, CARDS = shared.P, shared.RESOURCES, shared.STACKS, shared.CARDS
local contains, other, name, title = shared.contains, shared.other, shared.name, shared.title
local top, own, stock, pay, gain = shared.top, shared.own, shared.stock, shared.pay, shared.gain
local gain_text, choice, room = shared.gain_text, shared.choice, shared.room
local stealable, advance, head = shared.stealable, shared.advance, shared.head
local choice_done, start_resolution = shared.choice_done, shared.start_resolution
local building_labels = shared.building_labels
local store_open, givers, takers = shared.store_open, shared.givers, shared.takers
local spend_open, spend_rest, store_rest = shared.spend_open, shared.spend_rest, shared.store_rest

-- Rolling the dice -----------------------------------------------------------------------------

local function in_hand(g, p, kind) return g:count(p, "hand", kind) > 0 end

local function requirement(g, p, kind)
  local d = CARDS[kind]
  if d and d.requires then return d.requires(g, p) end
  return true
end

local function discard_card(g, p, kind) g:move(p, "hand", nil, "discard", kind) end

local function my_turn(g, p) return p == g:current() end

action {
  name = "roll",
  phases = { "roll" },
  syntax = "roll",
  help = "roll the production die and the event die",
  turn = true,
  apply = function(g, p)
    local production = g:roll(1)[1]
    local face = g:roll(1)[1]
    start_resolution(g, production, face)
  end,
}

-- Brigitta the Wise Woman: before rolling, choose the production die; roll the event die.
action {
  name = "play_brigitta",
  phases = { "roll" },
  syntax = "play brigitta <int>",
  help = "play Brigitta the Wise Woman: choose the production die (1-6), then roll the event die",
  turn = true,
  when = function(g, p) return in_hand(g, p, "brigitta") end,
  options = function() return { 1, 2, 3, 4, 5, 6 } end,
  legal = function(g, p, n)
    if n < 1 or n > 6 then return deny("the production die shows 1 to 6") end
    return true
  end,
  apply = function(g, p, n)
    discard_card(g, p, "brigitta")
    g:log(name(g, p) .. " plays Brigitta the Wise Woman and sets the production die to " .. n)
    start_resolution(g, n, g:roll(1)[1])
  end,
}

-- Choices while the dice are resolved ------------------------------------------------------

-- The head choice if it is p's (and of one of the kinds `why`), else nil.
local function choosing(g, p, why)
  local task = head(g)
  if task and task.seat == p and (why == nil or why[task.why]) then return task end
  return nil
end

local CHOOSE = { gain = true, marketplace = true, steal = true, buy = true }

action {
  name = "choose",
  phases = { "choose" },
  syntax = "choose <resource>",
  help = "choose a resource (celebration, plentiful harvest, trade, marketplace, events)",
  when = function(g, p) return choosing(g, p, CHOOSE) ~= nil end,
  options = function(g, p)
    local task = head(g)
    if task.why == "marketplace" then return task.allowed end
    if task.why == "steal" then return stealable(g, p, task) end
    if task.why == "buy" then
      if stock(g, p).gold == 0 then return {} end
      local out = {}
      for _, r in ipairs(RESOURCES) do if r ~= "gold" then out[#out + 1] = r end end
      return out
    end
    return RESOURCES
  end,
  legal = function(g, p, r)
    local task = head(g)
    if task.why == "marketplace" and not contains(task.allowed, r) then
      return deny("the Marketplace gives one of " .. table.concat(task.allowed, ", "))
    end
    if task.why == "steal" and stock(g, other(p))[r] == 0 then
      return deny(name(g, other(p)) .. " has no " .. r)
    end
    if task.why == "steal" and task.storable and room(g, p, r) == 0 then
      return deny("you can take only a resource you can store")
    end
    if task.why == "buy" then
      if r == "gold" then return deny("the traveling merchant sells for gold, not gold") end
      if stock(g, p).gold == 0 then return deny("you have no gold to pay the traveling merchant") end
    end
    return true
  end,
  apply = function(g, p, r)
    local task = head(g)
    if task.why == "steal" then
      pay(g, other(p), { [r] = 1 })
      local got = gain(g, p, r, 1)
      g:log("trade: " .. name(g, p) .. " takes " .. r .. " from " .. name(g, other(p))
        .. (got == 0 and " (lost: no room)" or ""))
    elseif task.why == "buy" then
      pay(g, p, { gold = 1 })
      g:log("traveling merchant: " .. gain_text(g, p, r, 1, gain(g, p, r, 1)) .. " for 1 gold")
    elseif task.place and store_open(g, p, r, 1) then
      -- The owner names the region too (Invention, Pharmacy): a `store` choice follows.
      choice_done(g, nil, { choice(p, "store", { resource = r, left = 1, reason = task.reason }) })
      return
    else
      g:log((task.reason or task.why) .. ": " .. gain_text(g, p, r, 1, gain(g, p, r, 1)))
    end
    choice_done(g)
  end,
}

-- The owner chooses the regions (dice.lua): one resource paid from, or stored in, the
-- region named; once the rest is forced it is done at once.
local function labels(list)
  local out = {}
  for i, s in ipairs(list) do out[i] = s.label end
  return out
end

local function spend_sources(g, p) return labels(givers(g, p, head(g).resource)) end
local function store_targets(g, p) return labels(takers(g, p, head(g).resource)) end

action {
  name = "spend",
  phases = { "choose" },
  syntax = "spend <slot>",
  help = "pay one resource from the region (or Gold Cache) of yours you name (trades, Goldsmith, Mint, Merchant Caravan)",
  when = function(g, p) return choosing(g, p, { spend = true }) ~= nil end,
  options = spend_sources,
  legal = function(g, p, lbl)
    local task = head(g)
    if not contains(spend_sources(g, p), lbl) then
      return deny("pay " .. task.resource .. " from one of your regions holding it: "
        .. table.concat(spend_sources(g, p), ", "))
    end
    return true
  end,
  apply = function(g, p, lbl)
    local task = head(g)
    local r, c = own(g, p, lbl)
    g:set_store(p, P, r, c, g:store(p, P, r, c) - 1)
    local from = { lbl }
    local left = task.left - 1
    if left > 0 and not spend_open(g, p, task.resource, left) then
      for _, l in ipairs(spend_rest(g, p, task.resource, left)) do
        if not contains(from, l) then from[#from + 1] = l end
      end
      task.left = 1
    else
      left = 0
    end
    g:log(task.reason .. ": " .. name(g, p) .. " pays " .. ((left > 0) and ((left + 1) .. " ") or "")
      .. task.resource .. " from " .. table.concat(from, ", "))
    choice_done(g, task)
  end,
}

action {
  name = "store",
  phases = { "choose" },
  syntax = "store <slot>",
  help = "put one resource you receive on the region (or Gold Cache) of yours you name (Invention, Pharmacy, Mineral Mining, Three-Field System)",
  when = function(g, p) return choosing(g, p, { store = true }) ~= nil end,
  options = store_targets,
  legal = function(g, p, lbl)
    local task = head(g)
    if not contains(store_targets(g, p), lbl) then
      return deny("store " .. task.resource .. " on one of your regions of it with room: "
        .. table.concat(store_targets(g, p), ", "))
    end
    return true
  end,
  apply = function(g, p, lbl)
    local task = head(g)
    local r, c = own(g, p, lbl)
    g:set_store(p, P, r, c, g:store(p, P, r, c) + 1)
    local into, lost = { lbl }, 0
    local left = task.left - 1
    if left > 0 and not store_open(g, p, task.resource, left) then
      local rest
      rest, lost = store_rest(g, p, task.resource, left)
      for _, l in ipairs(rest) do
        if not contains(into, l) then into[#into + 1] = l end
      end
      task.left = 1
    else
      left = 0
    end
    local n = 1 + left - lost
    g:log(task.reason .. ": " .. name(g, p) .. " stores " .. ((n > 1) and (n .. " ") or "") .. task.resource
      .. " on " .. table.concat(into, ", ") .. ((lost > 0) and (" (" .. lost .. " lost: no room)") or ""))
    choice_done(g, task)
  end,
}

action {
  name = "skip",
  phases = { "choose" },
  syntax = "skip",
  help = "pass on a choice you may decline (buy nothing more from the traveling merchant, take no card with the Traitor, ...)",
  when = function(g, p)
    local task = choosing(g, p)
    return task and task.optional == true
  end,
  apply = function(g, p)
    g:remove("queue", 1)
    advance(g)
  end,
}

-- Feud, step 1: the strength advantage names the opponent's buildings.
action {
  name = "name",
  phases = { "choose" },
  syntax = "name <slot>",
  help = "feud: name one of your opponent's buildings (3 in all)",
  when = function(g, p) return choosing(g, p, { feud_name = true }) ~= nil end,
  options = function(g, p)
    local task, out = head(g), {}
    for _, l in ipairs(building_labels(g, other(p))) do
      if not contains(task.named, l) then out[#out + 1] = l end
    end
    return out
  end,
  legal = function(g, p, lbl)
    local task = head(g)
    if not contains(building_labels(g, other(p)), lbl) then
      return deny("name a building (not a unit) of your opponent's principality")
    end
    if contains(task.named, lbl) then return deny("you named " .. lbl .. " already") end
    return true
  end,
  apply = function(g, p, lbl)
    local q = g:get("queue")
    local task = q[1]
    task.named[#task.named + 1] = lbl
    task.left = task.left - 1
    if task.left <= 0 then
      q[1] = choice(other(p), "feud_remove", { named = task.named })
      g:log("feud: " .. name(g, p) .. " names " .. table.concat(task.named, ", "))
    else
      q[1] = task
    end
    g:set("queue", q)
    advance(g)
  end,
}

local function stack_index(n)
  if n >= 1 and n <= #STACKS then return STACKS[n] end
end

local function stack_numbers()
  local out = {}
  for i = 1, #STACKS do out[i] = i end
  return out
end

-- The draw stacks card `kind` may go under: all of them, unless a filter `under_stacks`
-- narrows them (Theme Games, Placing Cards Under the Right Stack: the same back).
local function stacks_for(g, kind)
  return g:filter("under_stacks", stack_numbers(), kind)
end

local function may_go_under(g, kind, n)
  if not stack_index(n) then return deny("the draw stacks are 1 to " .. #STACKS) end
  if not contains(stacks_for(g, kind), n) then
    return deny("a " .. title(kind) .. " goes under a stack with the same back: "
      .. table.concat(stacks_for(g, kind), ", "))
  end
  return true
end

-- Where a card removed from a principality goes instead of `to` (a filter: the Theme
-- Games return a face-up expansion card to its stack).
local function removed_to(g, kind, to)
  return g:filter("removed_to", to, kind)
end

-- The choices answered by `remove <slot> under <int>`: one of the cards `task.named`
-- goes under a draw stack (a theme set adds its own, e.g. the Archer's).
local REMOVE_CHOICES = { feud_remove = true }

-- Feud, step 2: the opponent removes one of the named buildings, under a draw stack.
action {
  name = "remove",
  phases = { "choose" },
  syntax = "remove <slot> under <int>",
  help = "remove one of the named cards (feud, and the Theme Sets' attacks) and put it under a draw stack",
  when = function(g, p) return choosing(g, p, REMOVE_CHOICES) ~= nil end,
  options = function(g, p)
    local out = {}
    for _, l in ipairs(head(g).named) do
      local r, c = own(g, p, l)
      for _, i in ipairs(stacks_for(g, top(g, p, r, c))) do out[#out + 1] = { l, i } end
    end
    return out
  end,
  legal = function(g, p, lbl, n)
    if not contains(head(g).named, lbl) then return deny("remove one of the named buildings: " .. table.concat(head(g).named, ", ")) end
    local r, c = own(g, p, lbl)
    return may_go_under(g, top(g, p, r, c), n)
  end,
  apply = function(g, p, lbl, n)
    local r, c = own(g, p, lbl)
    local task = head(g)
    local kind = g:take_card(p, P, r, c, nil, removed_to(g, top(g, p, r, c), stack_index(n)), true)
    g:log((task.reason or "feud") .. ": " .. name(g, p) .. " removes " .. title(kind) .. " from " .. lbl
      .. " (under draw stack " .. n .. ")")
    -- A card lost to an event or the opponent's action card (the Theme Sets' Irmgard).
    g:run("forced_removal", p, kind, task)
    choice_done(g)
  end,
}

-- Fraternal Feuds: the strength advantage picks cards of the opponent's hand.
action {
  name = "pick",
  phases = { "choose" },
  syntax = "pick <word> under <int>",
  help = "fraternal feuds: put a card of your opponent's hand under a draw stack",
  when = function(g, p) return choosing(g, p, { fraternal = true }) ~= nil end,
  options = function(g, p)
    local out = {}
    for k in pairs(g:cards(other(p), "hand")) do
      for _, i in ipairs(stacks_for(g, k)) do out[#out + 1] = { k, i } end
    end
    return out
  end,
  legal = function(g, p, kind, n)
    kind = kind:lower()
    if not CARDS[kind] then return deny("'" .. kind .. "' is not a card of this game (see `legal`)") end
    if g:count(other(p), "hand", kind) == 0 then return deny(name(g, other(p)) .. " holds no " .. kind) end
    return may_go_under(g, kind, n)
  end,
  apply = function(g, p, kind, n)
    kind = kind:lower()
    g:move_under(other(p), "hand", nil, stack_index(n), kind)
    g:log("fraternal feuds: " .. name(g, p) .. " puts a card of " .. name(g, other(p)) .. "'s hand under draw stack " .. n)
    g:tell({ p, other(p) }, "(the card was " .. title(kind) .. ")")
    choice_done(g)
  end,
}

-- For the parts after this one.
shared.in_hand, shared.requirement, shared.discard_card = in_hand, requirement, discard_card
shared.my_turn, shared.choosing, shared.stack_index = my_turn, choosing, stack_index
shared.stacks_for, shared.may_go_under, shared.removed_to = stacks_for, may_go_under, removed_to
shared.REMOVE_CHOICES = REMOVE_CHOICES
