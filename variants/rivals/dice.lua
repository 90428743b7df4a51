-- Rivals for Catan: resolving the dice: the queue of steps, production, the event die.
-- Rulebook: Game Turn 1: Rolling the Dice; Event Die.
-- A part of ../rivals.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local P, MAX_STORE, RESOURCES = shared.P, shared.MAX_STORE, shared.RESOURCES
local EVENT_FACES, FACE_TEXT = shared.EVENT_FACES, shared.FACE_TEXT
local CARDS, next, contains, other = shared.CARDS, shared.next, shared.contains, shared.other
local name, title, cards_text = shared.name, shared.title, shared.cards_text
local order_from, site_regions = shared.order_from, shared.site_regions
local regions, holders = shared.regions, shared.holders
local expansions, tally, stock = shared.expansions, shared.tally, shared.stock
local stock_total, store_at, gain = shared.stock_total, shared.store_at, shared.gain
local gain_text = shared.gain_text
local is_region_site, boosters = shared.is_region_site, shared.boosters

-- Resolving the dice: a queue of steps ---------------------------------------------------------
-- Rolling the dice sets up a queue of steps in the game state: automatic ones (brigands,
-- production, an event) and choices a player must make (`choose`, `name`, `remove`,
-- `pick`). The queue runs until a choice is needed (phase "choose", the chooser to act) or
-- it is empty (phase "action").

local TASKS = {}
local EVENTS = {}
local DIE = {}

local function choice(seat, why, extra)
  local t = extra or {}
  t.t, t.seat, t.why = "choice", seat, why
  t.left = t.left or 1
  return t
end

-- How many more of resource r p's regions (and Gold Cache) can store.
local function room(g, p, r)
  local n = 0
  for _, s in ipairs(holders(g, p, r)) do n = n + MAX_STORE - s.store end
  return n
end

-- The resources p may take from the opponent by a `steal` choice: what the opponent has
-- and, with `storable` (the Moneylender), only what p can store.
local function stealable(g, p, task)
  local have, out = stock(g, other(p)), {}
  for _, r in ipairs(RESOURCES) do
    if have[r] > 0 and (not task.storable or room(g, p, r) > 0) then out[#out + 1] = r end
  end
  return out
end

-- Whether a choice a child variant adds can be made (by `why`); see choice_possible.
local POSSIBLE = {}

-- Whether a choice can be made at all; one that cannot is skipped.
local function choice_possible(g, task)
  if POSSIBLE[task.why] then return POSSIBLE[task.why](g, task) end
  if task.why == "steal" and task.storable then return #stealable(g, task.seat, task) > 0 end
  if task.why == "steal" then return stock_total(g, other(task.seat)) > 0 end
  if task.why == "buy" then return stock(g, task.seat).gold > 0 end
  if task.why == "fraternal" then return g:count(other(task.seat), "hand") > 0 end
  return true
end

-- The queue is changed an entry at a time (g:remove, g:insert): a task may change it, and
-- copying it whole to Lua and back at each step was most of the cost of resolving a roll.
-- Each entry is taken off before it is looked at (one call, where reading it and then
-- removing it took two): a choice that can be made goes back to the head to wait there.
local function advance(g)
  for _ = 1, 1000 do
    local task = g:remove("queue", 1)
    if not task then
      g:set("queue", nil)
      g:set_phase("action")
      return
    end
    if task.t == "choice" then
      if choice_possible(g, task) then
        g:insert("queue", 1, task)
        g:set_phase("choose")
        return
      end
    else
      local more = TASKS[task.t](g, task)
      if more then
        for i = #more, 1, -1 do g:insert("queue", 1, more[i]) end
      end
    end
  end
  error("the queue of dice results did not settle")
end

-- (Only the head is read: the rules ask for it while listing actions, and the whole
-- queue is a table per step.)
local function head(g) return g:get("queue", 1) end

-- One unit of the head choice is done: count it down and go on (after the steps `before`,
-- put at the head: a choice that follows from this one).
local function choice_done(g, changed, before)
  local first = g:remove("queue", 1)
  local task = changed or first
  task.left = task.left - 1
  if task.left > 0 then g:insert("queue", 1, task) end
  if before then
    for i = #before, 1, -1 do g:insert("queue", 1, before[i]) end
  end
  advance(g)
end

-- Starts resolving a list of steps from an action (a card played or built): the phase
-- becomes "choose" while a choice waits, then "action" again.
local function resolve(g, steps)
  if #steps == 0 then return end
  local q = g:get("queue") or {}
  for _, c in ipairs(steps) do q[#q + 1] = c end
  g:set("queue", q)
  advance(g)
end

-- The owner chooses the regions ----------------------------------------------------------------
-- Where the card index leaves the regions to the owner (the Goldsmith's gold "from different
-- gold fields and/or from the Gold Cache", the Merchant Caravan's resources "from the same or
-- different regions", Mineral Mining's ore "among any mountains regions of your choice", the
-- Pharmacy's resource "in any one region of your choice", a trade's resources "taken from
-- various regions of the same type", ...), each resource paid is a `spend` choice and each
-- received a `store` choice, asked only while the choice is open: more than one region
-- could give (take) it and not all of them must. What is forced is done at once. (Other
-- payments and receipts take from the fullest region and fill the emptiest:
-- principality.lua, pay and gain.)

-- p's holders of r that hold some (`spend`) or have room (`store`), and how much in all.
local function givers(g, p, r)
  local out, n = {}, 0
  for _, s in ipairs(holders(g, p, r)) do
    if s.store > 0 then out[#out + 1], n = s, n + s.store end
  end
  return out, n
end
local function takers(g, p, r)
  local out, n = {}, 0
  for _, s in ipairs(holders(g, p, r)) do
    if s.store < MAX_STORE then out[#out + 1], n = s, n + MAX_STORE - s.store end
  end
  return out, n
end

local function spend_open(g, p, r, n)
  local list, have = givers(g, p, r)
  return #list > 1 and have > n
end
local function store_open(g, p, r, n)
  local list, room_left = takers(g, p, r)
  return #list > 1 and room_left > n
end

-- Pays n of r when nothing is left to choose (one region holds it, or all of it goes).
local function spend_rest(g, p, r, n)
  local from = {}
  for _, s in ipairs(givers(g, p, r)) do
    if n == 0 then break end
    local k = math.min(n, s.store)
    g:set_store(p, P, s.row, s.col, s.store - k)
    from[#from + 1] = s.label
    n = n - k
  end
  if n > 0 then error("cannot pay " .. r .. " (a rule let an unaffordable action through)") end
  return from
end

-- Stores n of r when nothing is left to choose (one region has room, or all fill up);
-- returns the labels and what was lost.
local function store_rest(g, p, r, n)
  local into = {}
  for _, s in ipairs(takers(g, p, r)) do
    if n == 0 then break end
    local k = math.min(n, MAX_STORE - s.store)
    g:set_store(p, P, s.row, s.col, s.store + k)
    into[#into + 1] = s.label
    n = n - k
  end
  return into, n
end

-- Paying `cost` for p, the owner choosing the regions where that is open: pays the rest at
-- once and returns the `spend` choices (for `resolve`), labelled with `reason`.
local function spend_choices(g, p, cost, reason)
  local out = {}
  for _, r in ipairs(RESOURCES) do
    local n = cost[r] or 0
    if n > 0 then
      if spend_open(g, p, r, n) then
        out[#out + 1] = choice(p, "spend", { resource = r, left = n, reason = reason })
      else
        spend_rest(g, p, r, n)
      end
    end
  end
  return out
end

-- Receiving n of r into p's regions of the owner's choice: the `store` choice when that is
-- open, else stored at once (the usual message, after `reason`).
local function store_choices(g, p, r, n, reason)
  if store_open(g, p, r, n) then return { choice(p, "store", { resource = r, left = n, reason = reason }) } end
  g:log(reason .. ": " .. gain_text(g, p, r, n, gain(g, p, r, n)))
  return {}
end

POSSIBLE.spend = function(g, task) return #givers(g, task.seat, task.resource) > 0 end
POSSIBLE.store = function(g, task) return #takers(g, task.seat, task.resource) > 0 end

-- What a card gives once its price is paid (the Goldsmith's, the Mint's, the Merchant
-- Caravan's resources): received as usual, after the `spend` choices.
TASKS.receive = function(g, task)
  for _, r in ipairs(RESOURCES) do
    local n = task.get[r]
    if n then
      g:log((task.reason and (task.reason .. ": ") or "") .. gain_text(g, task.seat, r, n, gain(g, task.seat, r, n))
        .. (task.note or ""))
    end
  end
end

local function start_resolution(g, production, face)
  local event = EVENT_FACES[face]
  g:set("dice", { production = production, event = event })
  -- (name(g, p) written out as g:color(p) in the messages of every roll)
  g:log("%s rolls %s; event die: %s", g:color(g:current()), production, FACE_TEXT[event])
  -- Event Die: a Brigand Attack is resolved before production, every other symbol after.
  local q
  if event == "brigand" then
    q = { { t = "brigand" }, { t = "produce", n = production }, { t = "marketplace", n = production } }
  else
    q = { { t = "produce", n = production }, { t = "marketplace", n = production }, { t = "event_die", face = event } }
  end
  g:set("queue", q)
  g:emit("rolled", { seat = g:current(), production = production, event = event })
  advance(g)
end

-- Brigand Attack: more than 7 resources loses all gold and wool; the regions left and right
-- of a Storehouse are not counted, but lose their gold and wool too if the rest is over 7.
TASKS.brigand = function(g)
  for _, p in ipairs(order_from(g, g:current())) do
    local safe = {}
    for _, s in ipairs(expansions(g, p)) do
      if s.def.storehouse or s.card == "storehouse" then
        for _, rc in ipairs(site_regions(s.row, s.col)) do safe[rc[1] * 100 + rc[2]] = true end
      end
    end
    local counted = 0
    for _, s in ipairs(regions(g, p)) do
      if not safe[s.row * 100 + s.col] then counted = counted + s.store end
    end
    counted = g:filter("brigand_count", counted, p)
    if counted > 7 then
      local lost = { gold = 0, wool = 0 }
      for _, s in ipairs(regions(g, p)) do
        local r = s.def.resource
        if (r == "gold" or r == "wool") and s.store > 0 then
          lost[r] = lost[r] + s.store
          g:set_store(p, P, s.row, s.col, 0)
        end
      end
      g:log("brigands attack " .. name(g, p) .. " (" .. counted .. " resources): " .. name(g, p) .. " loses "
        .. cards_text(lost))
    else
      g:log("the brigands spare " .. name(g, p) .. " (" .. counted .. " resources counted)")
    end
  end
end

-- Production booster: +1 for each adjacent booster of the region's resource (on one of
-- its building sites). The seat's boosters are a kept list, most often empty.
filter("production", "rivals.boosters", function(g, n, p, s)
  local bs = boosters(g, p)
  for i = 1, #bs do
    local b = bs[i]
    if b.def.boosts == s.def.resource and is_region_site(s.row, s.col, b.row, b.col) then n = n + 1 end
  end
  return n
end)

-- Rolling the Dice: each region whose number matches receives 1 (at most 3 stored).
TASKS.produce = function(g, task)
  for _, p in ipairs(order_from(g, g:current())) do
    local got = {}
    local lost = 0
    for _, s in ipairs(regions(g, p)) do
      if s.def.die == task.n then
        local n = g:filter("production", 1, p, s)
        local put = store_at(g, p, s.row, s.col, n)
        got[s.def.resource] = (got[s.def.resource] or 0) + put
        lost = lost + n - put
      end
    end
    if next(got) or lost > 0 then
      if lost > 0 then
        g:log("%s receives %c (%d lost: regions full)", name(g, p), got, lost)
      else
        g:log("%s receives %c", name(g, p), got)
      end
    end
  end
end

-- Marketplace: when the opponent has more regions with the number rolled, take 1 resource
-- of a type those regions produce (even one the opponent could not store).
TASKS.marketplace = function(g, task)
  local out = {}
  for _, p in ipairs(order_from(g, g:current())) do
    if g:grid_count(p, P, "marketplace") > 0 then
      local mine, theirs, kinds = 0, 0, {}
      for _, s in ipairs(regions(g, p)) do
        if s.def.die == task.n then mine = mine + 1 end
      end
      for _, s in ipairs(regions(g, other(p))) do
        if s.def.die == task.n then
          theirs = theirs + 1
          if not contains(kinds, s.def.resource) then kinds[#kinds + 1] = s.def.resource end
        end
      end
      if theirs > mine then
        g:log(name(g, p) .. "'s Marketplace: choose one of " .. table.concat(kinds, ", "))
        out[#out + 1] = choice(p, "marketplace", { allowed = kinds })
      end
    end
  end
  return out
end

TASKS.event_die = function(g, task) return DIE[task.face](g) end

-- Trade: the holder of the trade advantage takes 1 resource of their choice from the opponent.
DIE.trade = function(g)
  local h = g:get("trade_token")
  if not h then
    g:log("trade: nobody has the trade advantage")
    return
  end
  return { choice(h, "steal") }
end

-- Celebration: the most skill points alone receive 1 resource; otherwise each player does.
DIE.celebration = function(g)
  local a, b = tally(g, 1).skill, tally(g, 2).skill
  if a ~= b then
    local p = a > b and 1 or 2
    g:log("celebration: " .. name(g, p) .. " has the most skill points")
    return { choice(p, "gain", { reason = "celebration" }) }
  end
  g:log("celebration: both players receive a resource")
  local out = {}
  for _, p in ipairs(order_from(g, g:current())) do out[#out + 1] = choice(p, "gain", { reason = "celebration" }) end
  return out
end

-- Plentiful Harvest: each player receives 1 resource of their choice; a Toll Bridge gives
-- 2 gold more (as far as the gold fields have room).
DIE.harvest = function(g)
  local out = {}
  for _, p in ipairs(order_from(g, g:current())) do
    for _ = 1, g:grid_count(p, P, "toll_bridge") do
      local got = gain(g, p, "gold", 2)
      g:log("toll bridge: " .. gain_text(g, p, "gold", 2, got))
    end
    out[#out + 1] = choice(p, "gain", { reason = "plentiful harvest" })
  end
  g:run("harvest", out)
  return out
end

DIE.brigand = function() end

DIE.event = function() return { { t = "event_card" } } end

-- Event card: draw the top card, resolve it, put it under the deck.
TASKS.event_card = function(g)
  local kind = g:draw(nil, "events", nil, "revealed")
  if not kind then return end
  g:log("event: " .. title(kind))
  g:emit("event_card", { card = kind })
  local more = (EVENTS[kind] and EVENTS[kind](g)) or {}
  if g:count(nil, "revealed", kind) > 0 then more[#more + 1] = { t = "event_done", card = kind } end
  return more
end

TASKS.event_done = function(g, task)
  if g:count(nil, "revealed", task.card) > 0 then g:move_under(nil, "revealed", nil, "events", task.card) end
end

-- For the parts after this one.
shared.TASKS, shared.EVENTS, shared.DIE, shared.choice = TASKS, EVENTS, DIE, choice
shared.room, shared.stealable, shared.POSSIBLE, shared.advance = room, stealable, POSSIBLE, advance
shared.head, shared.choice_done, shared.start_resolution = head, choice_done, start_resolution
shared.resolve, shared.spend_choices, shared.store_choices = resolve, spend_choices, store_choices
shared.spend_open, shared.store_open, shared.givers, shared.takers = spend_open, store_open, givers, takers
shared.spend_rest, shared.store_rest = spend_rest, store_rest
