-- The engine's own Lua, loaded before any variant. It keeps the registry of named hooks
-- and actions that variants fill, and the dispatch the Rust core calls into.
-- Hooks run in ascending priority (default 0), then in load order.

-- The chunk's arguments, from the engine alone: one makes the state read-only for the
-- rest of the current call (perform asks who acts next so), one gives the call a fresh
-- instruction budget (perform's checks and its action are each given the whole), one
-- answers g:cached's hits in C (install_cached below), and one freezes a value g:cached
-- keeps, as the rules are frozen once loaded (script/freeze.rs). `declared_lacking(seat,
-- want)` answers, for the actions whose declared needs the engine checks itself (bits of
-- `want`, see engine.declared_needs), those that `seat` lacks now, as a bit mask.
-- `new_table(n)` makes a table with room for n fields (engine.seat_terms). `take_drawn(name,
-- option)` hands a bot's draw over to its performance (engine.play).
local set_read_only, fresh_budget, keep_cached, check_samples, freeze_kept, card_stamp, declared_lacking,
  keep_run, new_table, take_drawn = ...

local R = { hooks = {}, by_point = nil, actions = {}, order = {}, seq = 0 }
local engine = {}
local current_variant = "engine"
-- Set once the game starts: hooks and actions are registered while variants load, so a
-- rule cannot change the rules mid-game outside the saved state.
local sealed = false

function engine.begin_variant(name) current_variant = name end

-- The rules running now, innermost last, so an error names the hook or action it was
-- raised in. No pcall: an error leaves the stack as it was, and `failed_rule` reads it.
local active, depth = {}, 0

function engine.failed_rule()
  local r = active[depth]
  depth = 0
  if r then return r.rule, r.variant end
  return nil, nil
end

-- Tracing (`trace` in the REPL, `Game::trace`): while `trace` is a list, every hook and
-- every part of an action that runs adds an entry (what ran, from which file:line, what it
-- was given and what it answered), innermost after outer. Only a copy of a game is traced
-- (the work of noting is charged as any other), so a game never depends on it.
local trace
local TRACE_CAP = 2000 -- entries of one traced call; more are counted, not kept
local traced_over = 0

-- A value as a line of text, short: tables to two levels, six entries each, keys sorted.
local function show(v, level)
  local t = type(v)
  if t == "string" then
    if #v > 60 then v = v:sub(1, 57) .. "..." end
    return string.format("%q", v)
  elseif t == "table" then
    if (level or 0) >= 2 then return "{...}" end
    local parts, n = {}, 0
    for k, x in pairs(v) do
      n = n + 1
      if n > 6 then parts[#parts + 1] = "..."; break end
      if math.type(k) == "integer" and k == n then
        parts[#parts + 1] = show(x, (level or 0) + 1)
      else
        parts[#parts + 1] = tostring(k) .. "=" .. show(x, (level or 0) + 1)
      end
    end
    return "{" .. table.concat(parts, ", ") .. "}"
  elseif t == "function" then
    return "function"
  end
  return tostring(v)
end

local function show_args(...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do parts[i] = show((select(i, ...))) end
  return table.concat(parts, ", ")
end

-- The engine's functions that run as a variant's rule, by the file:line that declared
-- them (the prices' hook: where `prices` was first called).
local DECLARED_AT = {}

-- Notes one entry (nil when not tracing); the caller fills `out` once the hook answered.
local function note(kind, point, name, fn, given)
  if not trace then return nil end
  if #trace >= TRACE_CAP then traced_over = traced_over + 1; return nil end
  -- The cards of each kind when it began (and `after`, when it returned: `done`), so
  -- `catan check` can name the hook that created or lost a card.
  local at = fn and (DECLARED_AT[fn] or __where_fn(fn)) or ""
  local e = { kind = kind, point = point, name = name, at = at, given = given,
    depth = depth, before = card_stamp() }
  trace[#trace + 1] = e
  return e
end

-- What a noted hook answered, and the cards when it returned.
local function done(e, out)
  if e then e.out, e.after = out, card_stamp() end
end

function engine.trace_start() trace, traced_over = {}, 0 end
function engine.trace_take()
  local t, over = trace or {}, traced_over
  trace, traced_over = nil, 0
  return t, over
end

-- g:debug(...): a modder's line, shown under `--debug` and in `trace`, never in the log,
-- the state or a replay. Noted the same way whether anyone looks (a game's budget must not
-- depend on `--debug`); the engine takes the lines after each call (`debug_take`).
local DEBUG_CAP = 200 -- lines of one call; more are counted
local debug_lines, debug_over = {}, 0
local function debug_line(g, ...)
  local parts = {}
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    parts[i] = type(v) == "string" and v or show(v)
  end
  local text = table.concat(parts, " ")
  if #text > 1000 then text = text:sub(1, 997) .. "..." end
  local at = __where(2)
  if #debug_lines < DEBUG_CAP then debug_lines[#debug_lines + 1] = at .. ": " .. text
  else debug_over = debug_over + 1 end
  if trace then
    local e = note("debug", "", "", nil, text)
    if e then e.at, e.depth = at, depth + 1 end
  end
end
function engine.debug_take()
  local lines, over = debug_lines, debug_over
  debug_lines, debug_over = {}, 0
  return lines, over
end

local function check_name(name, what)
  if type(name) ~= "string" or name == "" then
    error(what .. " needs a name (a string such as 'myvariant.rule')", 3)
  end
end

local function open_for(what)
  if sealed then error(what .. ": hooks and actions are registered while a variant loads, not during a game", 3) end
end

local function register(kind, point, name, fn, opts)
  open_for(kind)
  check_name(name, "a " .. kind .. " hook")
  if type(point) ~= "string" then error("hook '" .. name .. "' needs a point name", 3) end
  if type(fn) ~= "function" then error("hook '" .. name .. "' needs a function", 3) end
  R.seq = R.seq + 1
  local old = R.hooks[name]
  -- `when_changed`: a sequence hook of the state alone, called as fn(g), which the engine
  -- skips while nothing it read last time changed (and that run wrote nothing): g:run.
  local when_changed = opts and opts.when_changed
  if when_changed ~= nil and kind ~= "sequence" then
    error("hook '" .. name .. "': when_changed is for sequence hooks", 3)
  end
  R.hooks[name] = {
    kind = kind, point = point, name = name, fn = fn,
    when_changed = when_changed or nil,
    priority = (opts and opts.priority) or (old and old.priority) or 0,
    order = old and old.order or R.seq,
    variant = current_variant,
    rule = kind .. " hook '" .. name .. "'",
  }
  R.by_point = nil
end

function sequence(point, name, fn, opts) register("sequence", point, name, fn, opts) end
function filter(point, name, fn, opts) register("filter", point, name, fn, opts) end
function on(event, name, fn, opts) register("event", event, name, fn, opts) end

local function existing(name, what)
  local h = R.hooks[name]
  if not h then error("no hook named '" .. tostring(name) .. "' to " .. what, 3) end
  return h
end

function remove_hook(name)
  open_for("remove_hook")
  existing(name, "remove")
  R.hooks[name] = nil
  R.by_point = nil
end

function replace_hook(name, fn)
  open_for("replace_hook")
  local h = existing(name, "replace")
  if type(fn) ~= "function" then error("replace_hook('" .. name .. "', fn) needs a function", 2) end
  h.fn = fn
  h.variant = current_variant
end

-- wrap_hook("base.production", function(original) return function(g, ...) ... end end)
function wrap_hook(name, wrapper)
  open_for("wrap_hook")
  local h = existing(name, "wrap")
  h.fn = wrapper(h.fn)
  h.variant = current_variant
end

function hook_names()
  local names = {}
  for name in pairs(R.hooks) do names[#names + 1] = name end
  table.sort(names)
  return names
end

-- Hooks by kind, then point: by.filter["cost"] is the ordered list of cost filters. Kept
-- in two levels so that running a point builds no string.
-- Once the game starts the index never changes: FILTER, SEQUENCE and EVENT hold its three
-- parts, so running a point is one table read.
local FILTER, SEQUENCE, EVENT

local function points()
  if R.by_point then return R.by_point end
  local by = { sequence = {}, filter = {}, event = {} }
  local names = {}
  for name in pairs(R.hooks) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    local h = R.hooks[name]
    local per = by[h.kind]
    per[h.point] = per[h.point] or {}
    table.insert(per[h.point], h)
  end
  for _, per in pairs(by) do
    for _, list in pairs(per) do
      table.sort(list, function(a, b)
        if a.priority ~= b.priority then return a.priority < b.priority end
        return a.order < b.order
      end)
    end
  end
  R.by_point = by
  return by
end

local EMPTY = {}

-- Actions -----------------------------------------------------------------------------

-- The common parts of `when` and `legal`, declared as data beside them (docs/modding.md,
-- "What an action needs"), checked by the engine before the action's own functions:
--   turn = true           the actor is the player whose turn it is (g:current()); or a list
--                         of phases: only in those
--   holds = { zone, card } the actor holds at least one `card` in its zone
--   supply = "piece"      a piece of that kind left in the actor's supply
--   cost = { "what", from = "zone", free = { phases } }
--                         the actor can pay the price of `what` from the zone, as the
--                         "cost" filter says it (every variant's changes), except in `free`
-- A refused turn or card is refused as `when` is (`why_not` words it); a missing piece or
-- price is refused after `legal` (which judged the site first), in the engine's words.
-- Listing and a bot's draw skip the action without calling its functions.
local function phase_set_of(list, what, name)
  if type(list) ~= "table" then return nil end
  local set = {}
  for i, ph in ipairs(list) do
    if type(ph) ~= "string" then
      error("action '" .. name .. "': " .. what .. "[" .. i .. "] must be a phase name (a string), not a " .. type(ph), 4)
    end
    set[ph] = true
  end
  return set
end

local function shape_of(def)
  local name = def.name
  local turn, holds, supply, cost = def.turn, def.holds, def.supply, def.cost
  if turn == nil and holds == nil and supply == nil and cost == nil then return nil end
  local s = {}
  if turn ~= nil and turn ~= false then
    if turn ~= true and type(turn) ~= "table" then
      error("action '" .. name .. "': turn must be true or a list of phases, not a " .. type(turn), 3)
    end
    s.turn = turn == true or phase_set_of(turn, "turn", name)
  end
  if holds ~= nil then
    if type(holds) ~= "table" or type(holds[1]) ~= "string" or type(holds[2]) ~= "string" then
      error("action '" .. name .. "': holds must be { zone, card }, such as { \"dev\", \"knight\" }", 3)
    end
    s.zone, s.card = holds[1], holds[2]
  end
  if supply ~= nil then
    if type(supply) ~= "string" then
      error("action '" .. name .. "': supply must name a piece (a string), not a " .. type(supply), 3)
    end
    s.supply = supply
  end
  if cost ~= nil then
    if type(cost) ~= "table" or type(cost[1]) ~= "string" or type(cost.from) ~= "string" then
      error("action '" .. name .. "': cost must be { what, from = zone }, such as { \"road\", from = \"hand\" }", 3)
    end
    if cost.free ~= nil and type(cost.free) ~= "table" then
      error("action '" .. name .. "': cost.free must be a list of phases, not a " .. type(cost.free), 3)
    end
    s.cost, s.from, s.free = cost[1], cost.from, phase_set_of(cost.free, "cost.free", name)
  end
  s.needs = s.supply ~= nil or s.cost ~= nil
  return s
end

-- The printed prices, as data: prices { road = { brick = 1, lumber = 1 }, ... } (the
-- Building Costs card; docs/modding.md, "Prices"). A later declaration replaces the prices
-- it names. The "cost" filter starts from them: its first hook, registered by the first
-- declaration (as "<variant>.cost", priority -1000), adds the declared price of `what` to
-- the value it gets, so g:filter("cost", {}, what, seat) is a price with every variant's
-- changes; the hooks of variants that change a price run after it.
local PRICES, NEW_PRICE = {}, {}

-- A function that makes a fresh table of `price`, at its size: a table constructor sizes
-- the table once, where adding the kinds one by one to an empty table regrows it (rules
-- ask a price several times an action). Nil past five kinds: copied kind by kind.
local function price_maker(price)
  local k, v, n = {}, {}, 0
  for card, count in pairs(price) do n = n + 1; k[n], v[n] = card, count end
  local k1, k2, k3, k4, k5, v1, v2, v3, v4, v5 = k[1], k[2], k[3], k[4], k[5], v[1], v[2], v[3], v[4], v[5]
  if n == 0 then return function() return {} end end
  if n == 1 then return function() return { [k1] = v1 } end end
  if n == 2 then return function() return { [k1] = v1, [k2] = v2 } end end
  if n == 3 then return function() return { [k1] = v1, [k2] = v2, [k3] = v3 } end end
  if n == 4 then return function() return { [k1] = v1, [k2] = v2, [k3] = v3, [k4] = v4 } end end
  if n == 5 then return function() return { [k1] = v1, [k2] = v2, [k3] = v3, [k4] = v4, [k5] = v5 } end end
  return nil
end

local function declared_price(g, cards, what)
  -- Nothing priced before (the usual case: this hook runs first): the price itself.
  if next(cards) == nil then
    local make = NEW_PRICE[what]
    if make then return make() end
  end
  local price = PRICES[what]
  if price == nil then return cards end
  for k, n in next, price do cards[k] = (cards[k] or 0) + n end
  return cards
end

-- Whether the "cost" filter is the declared prices alone (no variant's cost hook): the
-- engine then checks declared costs itself, and g:price hands over the declared tables.
local function prices_alone()
  local list = FILTER.cost
  return list == nil or (#list == 1 and list[1].fn == declared_price)
end

function prices(list)
  open_for("prices")
  if type(list) ~= "table" then error("prices{...} takes a table of prices, such as { road = { brick = 1, lumber = 1 } }", 2) end
  for what, price in pairs(list) do
    if type(what) ~= "string" or type(price) ~= "table" then
      error("prices: each entry is what = { card = count }, such as road = { brick = 1, lumber = 1 }", 2)
    end
    for card, n in pairs(price) do
      if type(card) ~= "string" or math.type(n) ~= "integer" or n < 0 then
        error("prices: the price of '" .. what .. "' must count cards, such as { brick = 1 }, not "
          .. tostring(card) .. " = " .. tostring(n), 2)
      end
    end
  end
  if next(PRICES) == nil and not R.prices_hook then
    R.prices_hook = current_variant .. ".cost"
    register("filter", "cost", R.prices_hook, declared_price, { priority = -1000 })
    DECLARED_AT[declared_price] = __where(2)
  end
  for what, price in pairs(list) do
    local copy = {}
    for card, n in pairs(price) do copy[card] = n end
    PRICES[what], NEW_PRICE[what] = copy, price_maker(copy)
  end
end

function action(def)
  open_for("action")
  if type(def) ~= "table" then error("action{...} takes a table", 2) end
  check_name(def.name, "an action")
  def.rule = "action '" .. def.name .. "'"
  if type(def.apply) ~= "function" then error("action '" .. def.name .. "' needs an apply function", 2) end
  def.syntax = def.syntax or def.name
  def.variant = current_variant
  -- Whether the action takes arguments, decided once: listing asks it for every action.
  def.has_args = def.syntax:find("<", 1, true) ~= nil
  -- `phases = {"main", "trade"}`: the action exists only in these phases. The dispatcher
  -- checks it before calling `when`, which keeps listing legal actions cheap.
  if def.phases then
    local set = {}
    for _, ph in ipairs(def.phases) do set[ph] = true end
    def.phase_set = set
  end
  def.shape = shape_of(def)
  if def.shape then def.shape.at = __where(2) end
  if not R.actions[def.name] then R.order[#R.order + 1] = def.name end
  R.actions[def.name] = def
end

function remove_action(name)
  open_for("remove_action")
  if not R.actions[name] then error("no action named '" .. tostring(name) .. "' to remove", 2) end
  R.actions[name] = nil
  for i, n in ipairs(R.order) do if n == name then table.remove(R.order, i) break end end
end

-- wrap_action("build_road", { legal = function(original) return function(g, p, path) ... end end })
function wrap_action(name, parts)
  open_for("wrap_action")
  local def = R.actions[name]
  if not def then error("no action named '" .. tostring(name) .. "' to wrap", 2) end
  for key, wrapper in pairs(parts) do
    local original = def[key]
    -- An action whose declaration says all its `when` or `legal` would (shape_of): the
    -- wrapper still gets a function to call.
    if original == nil and (key == "when" or key == "legal") then original = function() return true end end
    def[key] = wrapper(original)
  end
  -- `sample` draws from the options as they were: a child that changes what is legal or
  -- listed without wrapping `sample` too leaves the bots to draw from the listing.
  if (parts.legal or parts.options) and not parts.sample then def.sample = nil end
  -- A wrapped `legal` may forbid what the parent's `options` lists: keep only the options
  -- it allows, so listed actions stay legal (unless the child wraps `options` itself).
  if parts.legal and not parts.options and def.options then
    local list, legal = def.options, def.legal
    local one = select(2, def.syntax:gsub("<", "")) == 1
    def.options = function(g, seat)
      local out = {}
      for _, o in ipairs(list(g, seat)) do
        local ok
        if one then ok = legal(g, seat, o) else ok = legal(g, seat, table.unpack(o)) end
        if ok then out[#out + 1] = o end
      end
      return out
    end
  end
  def.variant = current_variant
end

-- The actions this game can never offer under its players and options (an action's
-- `available(g)` said false, e.g. the 5-6 player game's with 4 players): `help` leaves them
-- out. Asked read-only, once the game is set up.
function engine.unavailable(g)
  local out = {}
  for _, name in ipairs(R.order) do
    local def = R.actions[name]
    if def.available and not def.available(g) then out[#out + 1] = name end
  end
  return out
end

function engine.action_specs()
  local out = {}
  for _, name in ipairs(R.order) do
    local def = R.actions[name]
    out[#out + 1] = { name = name, syntax = def.syntax, help = def.help or "", enumerable = def.options ~= nil or not def.has_args,
      debug = def.debug == true }
  end
  return out
end

-- Dispatch called from Rust ------------------------------------------------------------

-- Runs the hooks of a filter point in order. With `integers`, every hook must return an
-- integer (a seat, points): one returning anything else is named, with the line that
-- defines it, instead of failing later in Rust.
local function run_filter(g, point, integers, value, ...)
  local list = (FILTER or points().filter)[point] or EMPTY
  for i = 1, #list do
    local h = list[i]
    depth = depth + 1
    active[depth] = h
    local e = trace and note("filter", point, h.name, h.fn, show_args(value, ...))
    value = h.fn(g, value, ...)
    if e then done(e, show(value)) end
    if integers and math.type(value) ~= "integer" then
      error(__where_fn(h.fn) .. ": the " .. point .. " filter '" .. h.name .. "' returned "
        .. (value == nil and "nothing" or "a " .. type(value)) .. ", not an integer", 0)
    end
    depth = depth - 1
  end
  return value
end

-- g:slots(owner, grid): every position holding a card or a store, in reading order, as
-- { row, col, label, card, store, depth } tables (docs/api.md). Rust hands the facts over
-- as one flat list and the tables are made here; a position's label never changes, so
-- each is asked once.
local function install_slots(g)
  local flat_of, label_of = g.__slots_flat, g.slot_label
  local labels = {}
  function g:slots(owner, name)
    local flat = flat_of(self, owner, name)
    local by_owner = labels[owner or 0]
    if not by_owner then by_owner = {}; labels[owner or 0] = by_owner end
    local known = by_owner[name]
    if not known then known = {}; by_owner[name] = known end
    local out, n = {}, 0
    for i = 1, #flat, 5 do
      local row, col = flat[i], flat[i + 1]
      local key = row * 65536 + col
      local label = known[key]
      if not label then label = label_of(self, owner, name, row, col); known[key] = label end
      local card = flat[i + 2]
      n = n + 1
      out[n] = { row = row, col = col, label = label, card = card or nil, store = flat[i + 3], depth = flat[i + 4] }
    end
    return out
  end
end

-- g:cached(fn, arg, reads): fn(g, arg), computed once while what it reads stays as it is.
-- `reads`: nil, anything (the whole state); "grids", the slot grids only; "seat_grids", the
-- grids of seat `arg` only; "seat_cards", which cards lie where on them, not their stores;
-- "constants", nothing of the state: `fn` reads only `arg` (and, always, the variant's own
-- constants), so its value is kept for the rest of the Lua state's life. The versions behind
-- it (numbers that change with every write and every state the engine installs) are kept
-- from variants: a game must not depend on how often a bot forked.
-- What a miss charges beyond `fn` and the first `used` (which its measure includes): the
-- second `used` and the second probe (each call into the engine costs CALL_COST, 40 units;
-- api.rs), which a hit skips. src/engine.rs tests hold it to the unit.
local MISS_EXTRA = 40 + 40

-- How many values g:cached computed in this Lua state (`Game::cached_computations`): a
-- rule cannot count them itself, its variables being fixed once loaded.
local computations = 0
function engine.cached_computations() return computations end

-- Where the options of action `name` come from, "file:line", and the variant, for an option the engine
-- cannot read as the action's arguments: its `sample` when `sampled` and it has one.
function engine.options_at(name, sampled)
  local def = R.actions[name]
  if not def then return nil end
  local fn = (sampled and def.sample) or def.options
  return fn and __where_fn(fn), def.variant
end

-- g:cached's memo, once made. `forget_kept` empties it when an action ran out of Lua
-- memory: what listings happened to keep must not decide whether an action fits (the
-- engine tries it once more; Game::perform).
local kept_memo
function engine.forget_kept()
  if kept_memo then
    for key in next, kept_memo do kept_memo[key] = nil end
  end
end

-- The numbers of the engine's records of what a kept rule read (keep_run): the hooks
-- declared `when_changed` first (numbered once the rules are sealed), then each value
-- g:cached keeps with "recorded".
local next_record = 0

-- The view legal actions are listed through and the game it stands for (make_view,
-- listing_view): a value kept with "recorded" is computed on the game itself, whose getters
-- say what they read (the view answers the phase and whose turn from Lua).
local LISTING = {}

local function install_cached(g)
  local READS = { grids = 1, seat_grids = 2, seat_cards = 3, constants = 4, recorded = 5 }
  local probe, used = g.__probe, g.__used
  g.__probe, g.__used = nil, nil
  local NONE = {}
  -- [reads or NONE][fn] = { values, versions, costs }, each by arg (or NONE): a list, so
  -- that the engine's C function that answers hits (keep_cached) reads it by index.
  local memo = {}
  kept_memo = memo
  local function cached(self, fn, arg, reads)
    local code = 0
    if reads ~= nil then
      code = READS[reads]
      if not code then
        -- Level 3: the rule that called g:cached, past the C function that handed over.
        error("g:cached: reads must be nil, \"grids\", \"seat_grids\", \"seat_cards\", \"constants\" or \"recorded\", not "
          .. tostring(reads), 3)
      end
    end
    local key = reads or NONE
    local per = memo[key]
    if not per then per = {}; memo[key] = per end
    local m = per[fn]
    if not m then m = { {}, {}, {}, {} }; per[fn] = m end
    local k = arg
    if k == nil then k = NONE end
    if code == 5 then
      -- What fn reads, recorded by the engine: kept while none of it changes, and charged
      -- what computing it cost (keep_run). Two values are kept, records m[2][k] and the
      -- number after it, values m[1][k] and m[4][k]: a bot trying action after action
      -- from one position finds that position's value again beside the last action's.
      local n = m[2][k]
      if not n then n = next_record; next_record = n + 2; m[2][k] = n end
      local on = self
      if on == LISTING.view then on = LISTING.g end
      -- The same Lua runs whether it was kept or not (keep_run freezes what it keeps).
      local hit, r, at = keep_run(on, fn, n, arg, m[1][k], m[4][k])
      if hit == 1 then return m[1][k] elseif hit == 2 then return m[4][k] end
      computations = computations + 1
      if at == 2 then m[4][k] = r else m[1][k] = r end
      return r
    end
    local seat = (code == 2 or code == 3) and arg or nil
    -- A value kept costs what computing it did (and the calls below that a hit skips), so
    -- the budget a call uses never depends on what happened to be kept: the probe charges it.
    local v = probe(self, code, seat, m[2][k], m[3][k])
    if v == true then return m[1][k] end
    local before = used(self)
    computations = computations + 1
    local r = fn(self, arg)
    local after = used(self)
    -- Kept only if nothing it reads changed meanwhile: a listing may not write, but `fn` might.
    -- Frozen when kept: it is handed out again, and a rule that changed it would change
    -- what later calls get (a game would depend on how often its actions were listed).
    if probe(self, code, seat) == v and freeze_kept(r) then
      m[1][k], m[2][k], m[3][k] = r, v, after - before + MISS_EXTRA
    end
    return r
  end
  -- A hit is answered in C, charged what this function's hit is (its entry, the probe and
  -- the value's cost); anything else (a miss, a bad `reads`) comes here.
  g.cached = keep_cached and keep_cached(cached, memo, NONE) or cached
end

-- While legal actions are listed nothing may change, so the getters the rules call most
-- are answered once per listing instead of crossing into Rust each time (the number of
-- players only when asked). One view table is reused for every listing, so listing
-- allocates nothing of its own. It holds every method of `g` itself: one found through
-- `__index` missed first, about twenty times an action. Made once `g` is complete
-- (engine.install), so it needs no `__index`, and frozen with the rules, as `g` is: a
-- rule that wrote to it would change every later listing. (Without a metatable the
-- vendored VM does not cache its reads per instruction, where it would evict `g`'s.)
local cached = {}
local VIEW
local function make_view(g)
  VIEW = {}
  for k, v in next, g do VIEW[k] = v end
  VIEW.phase = function() return cached.phase end
  VIEW.current = function() return cached.current end
  VIEW.players = function()
    local n = cached.players
    if not n then n = cached.g:players(); cached.players = n end
    return n
  end
  LISTING.view = VIEW
end
local function listing_view(g)
  cached.g, cached.phase, cached.current, cached.players = g, g:phase(), g:current(), nil
  LISTING.g = g
  return VIEW
end

function engine.install(g)
  sealed = true
  install_slots(g)
  install_cached(g)
  local by = points() -- sealed now: the index is final
  -- Each hook declared `when_changed` gets a number, by which the engine keeps what its
  -- last run read (keep_run: run it only if something of that changed).
  for _, list in next, by.sequence do
    for _, h in ipairs(list) do
      if h.when_changed then h.kept, next_record = next_record, next_record + 1 end
    end
  end
  function g:run(point, ...)
    local list = (SEQUENCE or points().sequence)[point] or EMPTY
    for i = 1, #list do
      local h = list[i]
      depth = depth + 1
      active[depth] = h
      local e = trace and note("sequence", point, h.name, h.fn, show_args(...))
      if h.kept then
        -- (On the game itself: the listing's view answers the phase from Lua, unrecorded.)
        keep_run(self == LISTING.view and LISTING.g or self, h.fn, h.kept)
      else
        h.fn(self, ...)
      end
      if e then done(e) end
      depth = depth - 1
    end
  end
  FILTER, SEQUENCE, EVENT = by.filter, by.sequence, by.event
  -- run_filter without its check for integers, in one call: rules filter a value several
  -- times an action.
  local filters = FILTER
  function g:filter(point, value, ...)
    local list = filters[point]
    if not list then return value end
    for i = 1, #list do
      local h = list[i]
      depth = depth + 1
      active[depth] = h
      local e = trace and note("filter", point, h.name, h.fn, show_args(value, ...))
      value = h.fn(self, value, ...)
      if e then done(e, show(value)) end
      depth = depth - 1
    end
    return value
  end
  -- Whether any hook listens to `event`: a rule may build an event's data only then.
  local events = EVENT
  function g:listens(event)
    local list = events[event]
    return list ~= nil and #list > 0
  end
  function g:emit(event, data)
    self:_record(event)
    local list = (EVENT or points().event)[event] or EMPTY
    for i = 1, #list do
      local h = list[i]
      depth = depth + 1
      active[depth] = h
      local e = trace and note("event", event, h.name, h.fn, show(data))
      h.fn(self, data)
      if e then done(e) end
      depth = depth - 1
    end
  end
  -- g:produce(number): production as the variant declares it, counted and paid by the
  -- engine. A variant that changes what a building yields (a `production` filter hook,
  -- as (g, n, seat, piece, hex)) has each producing piece's yield filtered here, and the
  -- engine pays what the hooks say.
  local produce, producing, pay_owed = g.produce, g.__producing, g.__pay_owed
  g.__producing, g.__pay_owed = nil, nil
  if filters.production then
    function g:produce(number)
      local sites, owed = producing(self, number), {}
      for i = 1, #sites, 5 do
        local h, card, piece, owner = sites[i], sites[i + 1], sites[i + 2], sites[i + 3]
        local n = self:filter("production", sites[i + 4], owner, piece, h)
        local seats = owed[card]
        if not seats then seats = {}; owed[card] = seats end
        seats[owner] = (seats[owner] or 0) + n
      end
      return pay_owed(self, owed)
    end
  else
    g.produce = produce
  end
  g.debug = debug_line
  -- g:price(what, seat): g:filter("cost", {}, what, seat), read-only. While the "cost"
  -- filter is the declared prices alone (base, family, classic), the declared price
  -- itself, frozen, without the two tables and the filter a price costs: the bots'
  -- evaluation asks four prices a seat (src/README.md, "where a planner game's
  -- instructions go"). A variant's own cost hook is run as the filter runs it, and what it
  -- answers frozen too, so a rule reads a price the same way whichever path answered.
  if prices_alone() then
    local none = {}
    for _, price in next, PRICES do freeze_kept(price) end
    freeze_kept(none)
    function g:price(what) return PRICES[what] or none end
  else
    function g:price(what, seat)
      local price = self:filter("cost", {}, what, seat)
      freeze_kept(price)
      return price
    end
  end
  make_view(g)
  -- What the engine freezes with the rules (script/freeze.rs): `g`, its view while
  -- listing, the string metatable (which the sandbox hides next), every hook's function
  -- and every action's definition.
  local rules = { g, VIEW, getmetatable("") }
  for _, h in next, R.hooks do rules[#rules + 1] = h.fn end
  for _, def in next, R.actions do rules[#rules + 1] = def end
  return rules
end

-- The one option of an action without arguments: its empty argument list (shared, read only).
local NO_ARGS = { EMPTY }

-- Listing runs at the top of a call: the action listed is the one rule running.
-- A list of options that is no list is named with the line of the `options` function
-- (it failed later, in the engine's Lua, naming no rule, or listed nothing at all).
local function not_a_list(def, out)
  depth, active[1] = 1, def
  local what = out == nil and "nothing" or "a " .. type(out)
  if type(out) == "table" then what = "a table of named fields" end
  error(__where_fn(def.options) .. ": the options of action '" .. def.name .. "' returned "
    .. what .. ", not a list", 0)
end

-- The options of an action, nil for a template. Only `nil` is refused here: asking the
-- type of every list (a C call) was 0.4% of a simulated game. A listing checks the rest;
-- a bot's draw fails at `#` on anything but a table or a string, still naming the action
-- (`Script::sample` words it), and a string's entries are not the action's arguments.
-- Leaves `depth` at 1: see the end.
local function options_of(g, def, seat)
  depth, active[1] = 1, def
  local out
  if def.options then
    out = def.options(g, seat)
    if out == nil then not_a_list(def, out) end
  elseif not def.has_args then
    out = (not def.legal or def.legal(g, seat)) and NO_ARGS or EMPTY
  end -- else a template: the variant cannot list its arguments
  -- The action stays the rule running (`depth` 1) until the caller has read the list, so
  -- that a list that is none fails naming it; the caller sets `depth = 0`.
  return out
end

-- The actions that exist in a phase (`phases` naming it, or none), in registration order:
-- all of them, and those a bot can draw (listed by `options`, or taking no arguments).
-- Built once per phase name after the rules are sealed, so listing and drawing walk only
-- the actions of the phase instead of asking every action.
-- With them, the bits of the actions of the phase whose declared needs the engine checks
-- itself (`shape.bit`, engine.declared_needs): what `declared_lacking` is asked about.
local IN_PHASE, DRAWABLE, WANT = {}, {}, {}
local function in_phase(phase)
  local all = IN_PHASE[phase]
  if all then return all, DRAWABLE[phase], WANT[phase] end
  all = {}
  local drawable, want = {}, 0
  for _, name in ipairs(R.order) do
    local def = R.actions[name]
    if not def.phase_set or def.phase_set[phase] then
      all[#all + 1] = def
      if def.options or not def.has_args then drawable[#drawable + 1] = def end
      local bit = def.shape and def.shape.bit
      if bit then want = want | bit end
    end
  end
  if sealed then IN_PHASE[phase], DRAWABLE[phase], WANT[phase] = all, drawable, want end
  return all, drawable, want
end

-- The declared needs the engine checks itself, without calling into the rules: those of
-- every action that declares any, as names (Script::load compiles them against the
-- game's zones, cards and pieces, and hands back the bit of each it can check:
-- engine.checked_in_engine). A declared `cost` is the engine's to check only while the
-- "cost" filter is the declared prices alone; a variant's own cost hook may change any
-- price, so an action with a `cost` is then checked here, in Lua, calling the filter.
function engine.declared_needs()
  local plain = prices_alone()
  local out = {}
  for _, name in ipairs(R.order) do
    local s = R.actions[name].shape
    if s and (not s.cost or plain) then
      out[#out + 1] = { name = name, turn = s.turn, zone = s.zone, card = s.card, supply = s.supply,
        price = s.cost and (PRICES[s.cost] or EMPTY), from = s.from, free = s.free }
    end
  end
  return out
end

-- name -> bit: the actions whose declared needs the engine checks (before the rules are
-- frozen). Listing and a bot's draw ask it once per call, for every action of the phase.
function engine.checked_in_engine(bits)
  for name, bit in next, bits do R.actions[name].shape.bit = bit end
end

-- The declared turn and card (`shape_of` above): the part of `when` the engine checks.
local function shape_open(s, g, seat, phase, current)
  local turn = s.turn
  if turn and seat ~= current and (turn == true or turn[phase]) then return false end
  if s.card and g:count(seat, s.zone, s.card) == 0 then return false end
  return true
end

-- The declared piece and price: nil when `seat` has them, else what is missing ("supply",
-- or "cost" and the price).
local function shape_lacks(s, g, seat, phase)
  if s.supply and g:supply(seat, s.supply) == 0 then return "supply" end
  if s.cost and not (s.free and s.free[phase]) then
    local price = g:filter("cost", {}, s.cost, seat)
    if not g:holds(seat, s.from, price) then return "cost", price end
  end
  return nil
end

-- A price as players read it: the variant's `price_text` filter (g, text, cards), else the
-- kinds in name order with their counts.
local function price_text(g, price)
  local text = g:filter("price_text", nil, price)
  if type(text) == "string" then return text end
  local parts = {}
  for kind, n in pairs(price) do
    if n > 0 then parts[#parts + 1] = n .. " " .. kind end
  end
  return #parts == 0 and "nothing" or table.concat(parts, ", ")
end

-- The actions of this listing or draw that the seat lacks by the engine's check of their
-- declared needs (a mask of their bits), asked at the first such action and kept for the
-- call (the state does not change while listing): one call into the engine for all of
-- them. `lacking_for` is the seat asked about, nil before the first.
local lacking, lacking_for = 0, nil

-- `when` of an action of the phase (true without one), after its declared shape.
local function open_now(def, g, seat, want)
  local s = def.shape
  if s then
    local bit = s.bit
    if bit then
      if lacking_for ~= seat then lacking, lacking_for = declared_lacking(seat, want), seat end
      if lacking & bit ~= 0 then return false end
    else
      if not shape_open(s, g, seat, cached.phase, cached.current) then return false end
      if s.needs and shape_lacks(s, g, seat, cached.phase) then return false end
    end
  end
  local when = def.when
  if not when then return true end
  depth, active[1] = 1, def
  local ok = when(g, seat)
  depth = 0
  return ok
end

function engine.legal_actions(g, seat)
  g = listing_view(g)
  local out, templates = {}, {}
  local all, _, want = in_phase(g:phase())
  lacking_for = nil
  for j = 1, #all do
    local def = all[j]
    if open_now(def, g, seat, want) then
      local name = def.name
      local opts = options_of(g, def, seat)
      if opts then
        if type(opts) ~= "table" or (opts[1] == nil and next(opts) ~= nil) then not_a_list(def, opts) end
        depth = 0
        for i = 1, #opts do out[#out + 1] = { name, opts[i] } end
      else
        depth = 0
        templates[#templates + 1] = name
      end
    end
  end
  return out, templates
end

-- One random legal action for a bot, in a single call: draw a kind of action uniformly
-- among those the phase has (using the random numbers in [0, 1) that `rnd` holds, in
-- order), drop it and draw again if its `when` says no or it has no legal option, then
-- draw one of its options. The first kind that passes is uniform over the kinds with a
-- legal option, as if drawn from the full list by kind, and only the kinds drawn are
-- asked. Returns the name and the option, nil when there is none, or nil, "more" when
-- `rnd` ran out.
local names = {} -- reused by every draw: sampling allocates nothing of its own

-- Whether two option values are the same (tables field by field).
local function same_option(a, b)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  for k, v in next, a do
    if not same_option(v, b[k]) then return false end
  end
  for k in next, b do
    if a[k] == nil then return false end
  end
  return true
end

-- (Debug builds) `sample` at r must give the option `options` lists at r's place.
local function check_sample(g, def, seat, r, o)
  local opts = options_of(g, def, seat) or EMPTY
  local want = opts[(r * #opts) // 1 + 1]
  depth = 0
  if not same_option(o, want) then
    error(string.format("action '%s': its sample at %s gave an option other than the one its options list there (%d listed)",
      def.name, r, #opts), 0)
  end
end

function engine.sample(g, seat, rnd)
  g = listing_view(g)
  local _, drawable, want = in_phase(g:phase())
  local n = #drawable
  lacking_for = nil
  -- The kinds not drawn yet: drawable[1..n] until a draw fails, then names[1..n] (a copy
  -- made only then: the first kind drawn passes about half the time).
  local copied = false
  local k = 0
  while n > 0 do
    k = k + 1
    local r = rnd[k]
    if not r then return nil, "more" end
    local i = (r * n) // 1 + 1
    local def
    if copied then
      def = names[i]
      names[i] = names[n]
    else
      def = drawable[i]
    end
    -- open_now, inlined: the hot path of every bot's draw (a Lua call per kind drawn was
    -- 0.8% of a simulated base game).
    local when, ok, s = def.when, true, def.shape
    if s then
      local bit = s.bit
      if bit then
        -- Checked by the engine, for every action of the phase at once.
        if lacking_for ~= seat then lacking, lacking_for = declared_lacking(seat, want), seat end
        ok = lacking & bit == 0
      -- shape_open and shape_lacks, the turn inlined: most declarations are `turn = true`.
      elseif s.turn and seat ~= cached.current and (s.turn == true or s.turn[cached.phase]) then
        ok = false
      elseif s.card and g:count(seat, s.zone, s.card) == 0 then
        ok = false
      elseif s.needs and shape_lacks(s, g, seat, cached.phase) then
        ok = false
      end
    end
    if ok and when then
      depth, active[1] = 1, def
      ok = when(g, seat)
      depth = 0
    end
    if ok then
      local r2 = rnd[k + 1]
      if def.sample and r2 then
        -- The option `options` would give at r2's place, found without listing them all.
        depth, active[1] = 1, def
        local o = def.sample(g, seat, r2)
        depth = 0
        if check_samples and def.has_args then check_sample(g, def, seat, r2, o) end
        -- (No option for an action without arguments: nothing for the engine to convert.)
        if o ~= nil then return def.name, def.has_args and o or nil end
      else
        local opts = options_of(g, def, seat)
        if opts and #opts > 0 then
          depth = 0
          if not r2 then return nil, "more" end
          if not def.has_args then return def.name end
          return def.name, opts[(r2 * #opts) // 1 + 1]
        end
        depth = 0
      end
    end
    -- Dropped: the last kind not drawn takes its place.
    if not copied then
      for j = 1, n do names[j] = drawable[j] end
      names[i] = names[n]
      copied = true
    end
    n = n - 1
  end
  return nil
end

-- Returns true, or false plus the reason, the file:line that refused, and the variant.
-- `over`: the game has a winner (the engine says so, saving a call back into it).
-- `drawn`: the engine drew this very action from the rules' own `sample` or `options` on
-- this state (`Script::sample`), so asking `when` and `legal` again would only repeat
-- them. Either way the action runs with a fresh budget, so that a drawn action and the
-- same action typed (or replayed) may spend the same.
function engine.perform(g, seat, name, drawn, over, ...)
  local def = R.actions[name]
  if not def then return false, "there is no action '" .. name .. "'", nil, nil end
  if over then return false, "the game is over", nil, nil end
  depth, active[1] = 1, def
  -- Each action's g:debug lines start afresh (a table made only when some were kept).
  if debug_lines[1] then debug_lines = {} end
  debug_over = 0
  if not drawn then
    local in_phase = not def.phase_set or def.phase_set[g:phase()]
    if trace and not in_phase then
      local e = note("action", name, "phases", nil, g:phase())
      if e then e.out = "not in this phase" end
    end
    local s = def.shape
    local now = in_phase
    if now and s then
      now = shape_open(s, g, seat, g:phase(), g:current())
      if trace then
        local e = note("action", name, "declared", nil, show_args(seat))
        if e then e.at, e.out = s.at, show(now) end
      end
    end
    local e = now and def.when and trace and note("action", name, "when", def.when, show_args(seat))
    now = now and (not def.when or def.when(g, seat))
    if e then e.out = show(now) end
    if not now then
      -- `why_not(g, seat)` words the refusal; asked only here, so listing stays cheap.
      local why = def.why_not and def.why_not(g, seat)
      depth = 0
      return false, why or def.not_now or ("`" .. def.syntax:gsub(" <.*", "") .. "` is not possible now"),
        __where_fn(why and def.why_not or def.when or def.apply), def.variant
    end
    if def.legal then
      local e = trace and note("action", name, "legal", def.legal, show_args(seat, ...))
      local ok, why = def.legal(g, seat, ...)
      if e then e.out = show(ok) .. (why ~= nil and (", " .. show(type(why) == "table" and why.reason or why)) or "") end
      if not ok then
        depth = 0
        if type(why) == "table" then return false, why.reason, why.at or __where_fn(def.legal), def.variant end
        return false, why or ("'" .. name .. "' is not allowed"), __where_fn(def.legal), def.variant
      end
    end
    if s then
      local e = trace and (s.supply or s.cost) and note("action", name, "needs", nil, show_args(seat))
      local lacks, price = shape_lacks(s, g, seat, g:phase())
      if e then e.at, e.out = s.at, lacks and ("false, " .. lacks) or "true" end
      if lacks then
        local why = lacks == "supply" and ("you have no " .. s.supply .. " left")
          or ("you cannot pay " .. price_text(g, price))
        depth = 0
        return false, why, s.at, def.variant
      end
    end
  end
  fresh_budget()
  local applying = trace and note("action", name, "apply", def.apply, show_args(seat, ...))
  def.apply(g, seat, ...)
  if applying then done(applying) end
  depth = 0
  g:run("after_action", seat, name)
  if g:winner() then return true end
  -- Who acts next, asked in the same call (a call into the rules costs more than most
  -- answers), with the state read-only from here on, as engine.to_act has it.
  set_read_only()
  return true, nil, nil, nil, engine.to_act(g)
end

-- A bot's draw and its performance in one call into the rules (Script::play): what
-- engine.sample draws, converted by the engine (`take_drawn`: the action kept for the log,
-- its arguments as perform gets them, the call made an action's instead of a listing's),
-- then performed as engine.perform does an action drawn (`drawn`) on this state. Returns
-- nil and what sample returned when nothing was drawn, else the name and perform's answers.
function engine.play(g, seat, rnd, drawn, over)
  local name, o = engine.sample(g, seat, rnd)
  if not name then return nil, o end
  return name, engine.perform(g, seat, name, drawn, over, take_drawn(name, o))
end

function engine.setup(g) g:run("setup") end

function engine.to_act(g) return run_filter(g, "to_act", true, g:current()) end

function engine.points(g, seat, hidden) return run_filter(g, "victory_points", true, 0, seat, hidden) end

function engine.describe(g, seat) return g:filter("describe", {}, seat) end

function engine.card_text(g, kind) return g:filter("card_text", nil, kind) end

-- The game's end, for the players: where a seat's points come from (`points_by_source`,
-- a list of { source, points }) and what the variant counted (`tallies`, a list of
-- { title, { { label, count }, ... } }, such as the dice rolled).
function engine.points_by_source(g, seat) return g:filter("points_by_source", {}, seat) end
function engine.tallies(g) return g:filter("tallies", {}) end

-- Text for a player at the table: the `welcome` and `board_legend` filters (g, text) and
-- the `action_note` filter (g, text, seat, action), e.g. what an action costs the seat now.
function engine.player_text(g, point, seat, name)
  if point ~= "welcome" and point ~= "board_legend" and point ~= "action_note" then error("no player text '" .. tostring(point) .. "'") end
  local text = g:filter(point, nil, seat, name)
  if text ~= nil and type(text) ~= "string" then error("the " .. point .. " filter returned a " .. type(text) .. ", not text", 0) end
  return text
end

-- Bots: seat p's terms, what a bot's evaluation reads of the rules (`Script::terms`):
-- its victory points (hidden ones included: a determinized position is the bot's guess),
-- its evaluation when asked, and its named features when asked (`room`: the names seen so
-- far; nil otherwise). The variant's `evaluate` filter (g, score, seat, scratch, points)
-- builds the evaluation up from 0; without it, a bot aims at victory points. Its
-- `features` filter (g, features, seat, scratch) fills a fresh table. `scratch` is one
-- table shared by the seats of one position (the engine's number `position`), for facts
-- worth computing once (the board): a memo only, since the engine keeps each seat's terms
-- apart while nothing they read changes (as g:cached's "recorded" keeps a value, and
-- across restores), and the seats before may not have run.
local scratch, scratch_at = {}, nil
function engine.seat_terms(g, p, with_evaluate, room, position)
  if position ~= scratch_at then scratch, scratch_at = {}, position end
  local pts = run_filter(g, "victory_points", true, 0, p, true)
  local f = nil
  if room and points().filter["features"] then
    f = g:filter("features", new_table(room), p, scratch)
    if type(f) ~= "table" then error("the features filter returned " .. type(f) .. ", not a table", 0) end
  end
  local v = nil
  if with_evaluate then
    if points().filter["evaluate"] then
      v = g:filter("evaluate", 0, p, scratch, pts)
      if type(v) ~= "number" then error("the evaluate filter returned " .. type(v) .. ", not a number", 0) end
      v = v + 0.0
    else
      v = pts + 0.0
    end
  end
  return pts, v, f
end

-- Whether any hook fills the filter point `point` (`catan tune` asks for "evaluate").
function engine.has_filter(_, point)
  return points().filter[point] ~= nil
end

-- Bots: the variant's named features of each seat (its `features` filter: (g, features,
-- seat, scratch) fills a table name -> number), which a tuned evaluation weighs beside the
-- engine's generic ones (docs/bots.md). Nil when the variant declares none.
function engine.features(g)
  local hooks = points().filter["features"]
  if not hooks then return nil end
  local out, scratch = {}, {}
  for p = 1, g:players() do
    local f = g:filter("features", {}, p, scratch)
    if type(f) ~= "table" then error("the features filter returned " .. type(f) .. ", not a table", 0) end
    local row = {}
    for k, v in pairs(f) do
      if type(k) ~= "string" then error("the features filter returned a key that is not a name: " .. tostring(k), 0) end
      if type(v) ~= "number" then error("the features filter gave '" .. k .. "' a " .. type(v) .. ", not a number", 0) end
      row[k] = v + 0.0
    end
    out[p] = row
  end
  return out
end


-- Simulations: what a variant measures of a finished game (`catan sim`'s metrics). Each
-- `metrics` filter (g, m) adds names and numbers to one table, read-only. A hook that
-- returns anything else, or a value that is not a finite number, is named with its line
-- here: a row of numbers is all a report can average.
function engine.metrics(g)
  local m = {}
  local list = points().filter["metrics"] or EMPTY
  for i = 1, #list do
    local h = list[i]
    depth = depth + 1
    active[depth] = h
    m = h.fn(g, m)
    local where = __where_fn(h.fn) .. ": the metrics filter '" .. h.name .. "' "
    if type(m) ~= "table" then
      error(where .. "returned " .. (m == nil and "nothing" or "a " .. type(m)) .. ", not the table of metrics", 0)
    end
    for k, v in pairs(m) do
      if type(k) ~= "string" or k == "" then
        error(where .. "set a metric named by a " .. type(k) .. ", not by a name", 0)
      end
      if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge then
        local what = type(v) == "number" and tostring(v) or ("a " .. type(v))
        error(where .. "set metric '" .. k .. "' to " .. what .. ", not a finite number", 0)
      end
      if k:sub(1, 8) == "actions." then
        error(where .. "set metric '" .. k .. "': names beginning 'actions.' are the engine's counts of actions", 0)
      end
    end
    depth = depth - 1
  end
  return m
end

-- deny("reason") from a legal function refuses with the caller's file:line. It is a Rust
-- function (see spec_load.rs): a tail call to a C function keeps the caller's frame, so
-- `return deny(...)` still knows its line.

return engine
