-- tests/api_methods.rs: every `g:` method declared `fast` (src/script/methods.rs) is called
-- here, by `call <method>` with arguments its C function answers and arguments only its
-- mlua function reads, and by `bad <method>` with arguments it must refuse; the test plays
-- each both ways and compares answers, errors, state and budget.

variant {
  extends = "base",
  description = "base with a slot grid per seat and one for the game, calling every fast g: method (tests)",
  grids = {
    { name = "yard", owner = "player", rows = 2, cols = 3 },
    { name = "market", owner = "game", rows = 1, cols = 4 },
  },
}

-- Each answer of `f` (all of them, nils kept as false) as a list, so that a map key of
-- nil or a hole does not lose any.
local function all(...)
  local n, out = select("#", ...), {}
  for i = 1, n do
    local v = select(i, ...)
    if v == nil then v = false end
    out[i] = v
  end
  return out
end

local function keep(g, name, ...)
  g:insert("answers", { name, all(...) })
end

local function derive(g, arg)
  return { g:count(arg, "hand"), g:slot(arg, "yard", 1, 1) or "empty" }
end

local CALLS = {
  players = function(g) keep(g, "players", g:players()) end,
  current = function(g) keep(g, "current", g:current()) end,
  set_current = function(g, p) g:set_current(2); g:set_current(2.0); g:set_current(p) end,
  phase = function(g) keep(g, "phase", g:phase()) end,
  set_phase = function(g) local was = g:phase(); g:set_phase("elsewhere"); g:set_phase(5); g:set_phase(was) end,
  turn = function(g) keep(g, "turn", g:turn()) end,
  set_turn = function(g) g:set_turn(g:turn() + 1); g:set_turn(g:turn() + 1.0) end,
  winner = function(g) keep(g, "winner", g:winner()) end,
  option = function(g) keep(g, "option", g:option("victory_points"), g:option("board"), g:option("starting_pieces")) end,
  color = function(g) keep(g, "color", g:color(1), g:color(3.0)) end,
  -- g:cached: a miss asks the probe and the budget; a hit is served in C.
  __probe = function(g, p)
    for _, reads in ipairs({ "nil", "grids", "seat_grids", "seat_cards", "constants" }) do
      local r = reads ~= "nil" and reads or nil
      keep(g, "cached", g:cached(derive, p, r), g:cached(derive, p, r))
    end
  end,
  __used = function(g, p) keep(g, "cached", g:cached(derive, p), g:cached(derive, p, "seat_cards")) end,
  get = function(g)
    g:set("stored", { 1, "two", { three = 3, [4] = true }, n = { 5.5 } })
    g:set("list", { 10, 20 })
    keep(g, "get", g:get("stored"), g:get("stored", 2), g:get("stored", 2.0), g:get("stored", 2.5),
      g:get("stored", "n"), g:get("stored", "m"), g:get("list", 2), g:get("list", 3), g:get("nothing"),
      g:get("nothing", 1), g:get("played_dev"))
  end,
  set = function(g)
    g:set("a", 7); g:set("b", 2.0); g:set("c", false); g:set("d", "seven"); g:set("e", { 1, 2 })
    g:set("f", { list = { "a", { b = true } }, [7] = 2.5, empty = {} }); g:set("d", nil); g:set("a", 8)
  end,
  set_entry = function(g)
    g:set_entry("t", 7, 1); g:set_entry("t", "k", { 2, 3 }); g:set_entry("t", 7.0, nil); g:set_entry("l", 1, "a")
    g:set_entry("l", 2, true); g:set_entry("l", 1, 2.5); g:set_entry("l", 2, nil); g:set_entry("l", 5, "gap")
    keep(g, "set_entry", g:get("t"), g:get("l"))
  end,
  insert = function(g)
    g:insert("q", 1); g:insert("q", { x = 1 }); g:insert("q", 1, "first"); g:insert("q", 2, 3)
    g:set("empty", {}); g:insert("empty", true)
  end,
  remove = function(g)
    g:set("q", { 1, { x = 2 }, "three", 4 })
    keep(g, "remove", g:remove("q"), g:remove("q", 1), g:remove("q", 1.0), g:remove("none"), g:remove("q"), g:remove("q"))
  end,
  count = function(g, p)
    keep(g, "count", g:count(p, "hand"), g:count(p, "hand", "ore"), g:count(nil, "bank"), g:count(nil, "bank", "wool"),
      g:count(2.0, "hand", "brick"))
  end,
  empty = function(g, p)
    keep(g, "empty", g:empty(p, "hand"), g:empty(nil, "bank"), g:empty(nil, "deck"), g:empty(2.0, "dev"))
  end,
  holds = function(g, p)
    keep(g, "holds", g:holds(nil, "bank", { ore = 1, grain = 0 }), g:holds(p, "hand", { ore = 99 }),
      g:holds(p, "hand", {}), g:holds(nil, "bank", { ore = 19, wool = 20 }))
  end,
  lacks = function(g, p)
    keep(g, "lacks", all(g:lacks(nil, "bank", { ore = 1, grain = 0 })), all(g:lacks(p, "hand", { ore = 99 })),
      all(g:lacks(p, "hand", {})), all(g:lacks(nil, "bank", { ore = 25, wool = 20 })))
  end,
  count_category = function(g, p)
    keep(g, "count_category", g:count_category(nil, "bank", "resource"), g:count_category(p, "hand", "resource"),
      g:count_category(nil, "deck", "development"))
  end,
  cards = function(g, p) keep(g, "cards", g:cards(nil, "bank"), g:cards(p, "hand"), g:cards(nil, "deck")) end,
  trades = function(g, p)
    local res = { "brick", "lumber", "wool", "grain", "ore" }
    keep(g, "trades", g:trades({ { ore = 4 }, { brick = 1, wool = 2 } }, res, "bank"),
      g:trades({ { grain = 2 } }, res, { ore = 1, grain = 3 }), g:trades({ { grain = 2 } }, res), g:trades({}, res, "bank"))
  end,
  trade_at = function(g, p)
    local res, gives = { "brick", "lumber", "wool", "grain", "ore" }, { { ore = 4 }, { wool = 3 } }
    keep(g, "trade_at", g:trade_at(gives, res, "bank", 0), g:trade_at(gives, res, "bank", 0.5),
      g:trade_at(gives, res, { lumber = 2 }, 0.99), g:trade_at(gives, res, nil, 0.3), g:trade_at({}, res, nil, 0.3) or "none")
  end,
  selections = function(g, p)
    local res = { "brick", "lumber", "wool", "grain", "ore" }
    -- (The last: more cards than the C function counts, the mlua function's.)
    keep(g, "selections", g:selections(2, res, { ore = 2, wool = 1, grain = 0 }), g:selections(1, { "ore", "wool" }),
      g:selections(0, res, {}), g:selections(3, res, { ore = 1 }), #g:selections(40, { "ore" }))
  end,
  selection = function(g, p)
    local res = { "brick", "lumber", "wool", "grain", "ore" }
    keep(g, "selection", g:selection(2, res, { ore = 2, wool = 1 }, 0), g:selection(2, res, { ore = 2, wool = 1 }, 0.99),
      g:selection(3, res, nil, 0.5), g:selection(3, res, { ore = 1 }, 0.5) or "none", g:selection(33, { "ore" }, nil, 0.5),
      g:selection(9, { "ore", "wool", "grain", "brick", "lumber", "knight", "road_building", "monopoly", "year_of_plenty" }, nil, 0.7))
  end,
  move = function(g, p)
    g:move(nil, "bank", p, "hand", "ore", 2); g:move(nil, "bank", p, "hand", "wool"); g:move(p, "hand", nil, "bank", "ore")
    g:move(nil, "deck", nil, "deck", "knight", 1); g:move(nil, "bank", 2.0, "hand", "grain", 1.0)
  end,
  hex_count = function(g) keep(g, "hex_count", g:hex_count()) end,
  hex = function(g) keep(g, "hex", g:hex(1), g:hex(5), g:hex(10.0)) end,
  hex_resource = function(g)
    local out = {}
    for h = 1, g:hex_count() do out[h] = g:hex_resource(h) or "none" end
    keep(g, "hex_resource", out)
  end,
  hexes_numbered = function(g) keep(g, "hexes_numbered", g:hexes_numbered(8), g:hexes_numbered(7), g:hexes_numbered(2.0)) end,
  corners = function(g) keep(g, "corners", g:corners(1), g:corners(19)) end,
  hex_neighbors = function(g) keep(g, "hex_neighbors", g:hex_neighbors(1), g:hex_neighbors(10)) end,
  hexes_at = function(g) keep(g, "hexes_at", g:hexes_at(1), g:hexes_at(20)) end,
  marker = function(g) keep(g, "marker", g:marker("robber"), g:marker("nothing")) end,
  harbors_of = function(g) keep(g, "harbors_of", g:harbors_of(1), g:harbors_of(2), g:harbors_of(3), g:harbors_of(4)) end,
  at = function(g)
    local out = {}
    for n = 1, 54 do out[#out + 1] = all(g:at("intersection", n)) end
    for n = 1, 72, 7 do out[#out + 1] = all(g:at("path", n)) end
    keep(g, "at", out)
  end,
  supply = function(g, p) keep(g, "supply", g:supply(p, "road"), g:supply(2, "city"), g:supply(3.0, "settlement")) end,
  piece_count = function(g, p) keep(g, "piece_count", g:piece_count(p, "settlement"), g:piece_count(2, "road")) end,
  corner_pieces = function(g)
    local out = {}
    for h = 1, g:hex_count() do out[h] = g:corner_pieces(h) end
    keep(g, "corner_pieces", out)
  end,
  longest_trail = function(g) keep(g, "longest_trail", g:longest_trail(1, "road"), g:longest_trail(2, "road")) end,
  roll = function(g) keep(g, "roll", g:roll(), g:roll(3), g:roll(0), g:roll(1.0)) end,
  log = function(g, p)
    g:log("plain"); g:log(42); g:log("%s holds %d%% of %s", "red", 50, 2.5); g:log("%s: %d", g:color(p), 7.0)
    g:log("100%"); g:log("%s%s%s%s%s%s%s%s%s", 1, 2, 3, 4, 5, 6, 7, 8, 9)
  end,
  _record = function(g) g:emit("noted", { x = 1 }); g:emit("noted") end,
  slot = function(g, p)
    g:create_card(p, "yard", 1, 1, "ore")
    keep(g, "slot", g:slot(p, "yard", 1, 1), g:slot(p, "yard", 2, 3), g:slot(nil, "market", 1, 4.0))
  end,
  store = function(g, p) keep(g, "store", g:store(p, "yard", 1, 2), g:store(nil, "market", 1, 1)) end,
  __slots_flat = function(g, p)
    g:create_card(nil, "market", 1, 2, "wool")
    keep(g, "slots", g:slots(nil, "market"), g:slots(p, "yard"))
  end,
  grid_count = function(g, p)
    g:create_card(p, "yard", 2, 2, "ore")
    keep(g, "grid_count", g:grid_count(p, "yard"), g:grid_count(p, "yard", "ore"), g:grid_count(nil, "market", "wool"))
  end,
  set_store = function(g, p)
    g:set_store(p, "yard", 1, 1, 4); g:set_store(nil, "market", 1, 3, 2.0); g:set_store(p, "yard", 1, 1, 0)
    keep(g, "set_store", g:store(p, "yard", 1, 1), g:store(nil, "market", 1, 3))
  end,
}

-- Production as base declares it: what each seat received and the resources short.
CALLS.produce = function(g) keep(g, "produce", g:produce(6), g:produce(8.0), g:produce(12)) end
CALLS.expected_production = function(g, p)
  keep(g, "expected_production", all(g:expected_production(p)), all(g:expected_production(4.0)))
end
CALLS.expected_production_at = function(g)
  local out = {}
  for n = 1, 54, 5 do out[#out + 1] = all(g:expected_production_at(n)) end
  keep(g, "expected_production_at", out)
end
-- Lists of sites, counted then filled by the C function.
CALLS.pieces_of = function(g, p)
  keep(g, "pieces_of", g:pieces_of(p, "settlement"), g:pieces_of(2, "road"), g:pieces_of(3.0, "city"))
end
CALLS.open_intersections = function(g, p)
  keep(g, "open_intersections", g:open_intersections(2, p), g:open_intersections(2), g:open_intersections(1, 3.0))
end
CALLS.open_paths = function(g, p) keep(g, "open_paths", g:open_paths(p), g:open_paths(4)) end

local BAD = {
  set_current = function(g) g:set_current(9) end,
  set_phase = function(g) g:set_phase({}) end,
  set_turn = function(g) g:set_turn(-1) end,
  option = function(g) g:option("roads_cost") end,
  color = function(g) g:color(9) end,
  __probe = function(g) g:cached(derive, nil, "seat_grids") end,
  get = function(g) g:get("stored", {}) end,
  set = function(g) g:set("f", { ok = 1, deep = { fn = print } }) end,
  set_entry = function(g) g:set("n", 1); g:set_entry("n", 1, 2) end,
  insert = function(g) g:set("n", 1); g:insert("n", 2) end,
  remove = function(g) g:insert("q", 1); g:remove("q", 5) end,
  count = function(g, p) g:count(p, "pocket") end,
  holds = function(g, p) g:holds(p, "hand", { ore = 1.5 }) end,
  lacks = function(g, p) g:lacks(p, "hand", { ore = 1.5 }) end,
  empty = function(g, p) g:empty(p, "pocket") end,
  count_category = function(g) g:count_category(nil, "hand", "resource") end,
  cards = function(g) g:cards(nil, "hand") end,
  trades = function(g) g:trades({ { ore = 1.5 } }, { "wool" }, "bank") end,
  trade_at = function(g) g:trade_at({ { ore = 1 } }, { "wool", "gold" }, "bank", 0.5) end,
  selections = function(g) g:selections(2, { "ore", "ore" }, nil) end,
  -- (A count of 2.0 is no count, to either function.)
  selection = function(g) g:selection(2, { "ore", "wool" }, { ore = 2.0 }, 0.5) end,
  move = function(g, p) g:move(p, "hand", nil, "bank", "ore", 99) end,
  hex = function(g) g:hex(999) end,
  hex_resource = function(g) g:hex_resource(0) end,
  hexes_numbered = function(g) g:hexes_numbered(-1) end,
  corners = function(g) g:corners(20) end,
  hex_neighbors = function(g) g:hex_neighbors("one") end,
  hexes_at = function(g) g:hexes_at(55) end,
  harbors_of = function(g) g:harbors_of(9) end,
  at = function(g) g:at("hex", 1) end,
  supply = function(g, p) g:supply(p, "castle") end,
  piece_count = function(g) g:piece_count(9, "road") end,
  corner_pieces = function(g) g:corner_pieces(0) end,
  longest_trail = function(g) g:longest_trail(1, "castle") end,
  roll = function(g) g:roll(1001) end,
  log = function(g) g:log("%d cards", "two") end,
  slot = function(g, p) g:slot(p, "yard", 3, 1) end,
  store = function(g) g:store(nil, "yard", 1, 1) end,
  __slots_flat = function(g) g:slots(nil, "nowhere") end,
  grid_count = function(g, p) g:grid_count(p, "yard", "gold") end,
  set_store = function(g, p) g:set_store(p, "yard", 1, 1, 70000) end,
  produce = function(g) g:produce(300) end,
  expected_production = function(g) g:expected_production(5) end,
  expected_production_at = function(g) g:expected_production_at(55) end,
  pieces_of = function(g, p) g:pieces_of(p, "castle") end,
  open_intersections = function(g) g:open_intersections(2, 0) end,
  open_paths = function(g) g:open_paths("red") end,
}

action {
  name = "call",
  syntax = "call <word>",
  apply = function(g, p, name)
    local f = CALLS[name]
    if not f then error("no call of g:" .. name .. " in tests/variants/api_methods.lua") end
    -- Several times, so that the calls weigh in the action's budget.
    for _ = 1, 4 do f(g, p) end
  end,
}

action {
  name = "bad",
  syntax = "bad <word>",
  apply = function(g, p, name)
    local f = BAD[name]
    if f then f(g, p) end
  end,
}
