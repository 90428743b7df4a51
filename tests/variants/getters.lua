-- tests/getters.rs: the getters answered by C functions (src/script/methods.rs) give the
-- answers, errors and locations of their mlua functions. `probe` stores what the getters
-- say so the test can compare it with the state; each `bad_*` action calls one with an
-- argument the slow method must refuse.

variant {
  extends = "base",
  description = "base plus actions that probe the fast getters (tests)",
}

local function act(name, apply)
  action { name = name, syntax = name, apply = apply }
end

act("probe", function(g, p)
  -- A harbor for seat 3, so that g:harbors_of has something to say.
  local h = g:harbors()[1]
  if not g:at("intersection", h.ends[1]) then g:place(3, "settlement", h.ends[1]) end
  -- A piece of no player on a corner of hex 5, for g:corner_pieces to report as `false`.
  for _, node in ipairs(g:corners(5)) do
    if not g:at("intersection", node) then g:place(nil, "settlement", node) break end
  end
  g:set("stored", { 1, "two", { three = 3, [4] = true }, n = { 5.5 } })
  local stored = g:get("stored")
  g:set("list", { 10, 20 })
  -- g:get(key, field): one entry (the stored table above is a map with keys 1, 2, 3, n).
  local entries = {
    g:get("stored", 2), g:get("stored", 3).three, g:get("stored", "n")[1], g:get("stored", 2.0),
    g:get("list", 2), g:get("list", 3) == nil, g:get("stored", 2.5) == nil, g:get("stored", "m") == nil,
    g:get("played_dev", 1) == nil, g:get("nothing", 1) == nil,
  }
  local terrain, number = g:hex(5)
  local piece, owner = g:at("intersection", 1)
  g:set("probe", {
    phase = g:phase(), current = g:current(), players = g:players(), turn = g:turn(),
    winner = g:winner() or "none", color = g:color(2), robber = g:marker("robber") or 0,
    hand = g:count(p, "hand"), ore = g:count(p, "hand", "ore"), bank = g:count(nil, "bank"),
    resources = g:count_category(nil, "bank", "resource"), cards = g:cards(nil, "bank"),
    deck = #g:cards(nil, "deck"), terrain = terrain, number = number or 0,
    resource = g:hex_resource(5) or "none", piece = piece or "none", owner = owner or 0,
    supply = g:supply(p, "road"), settlements = g:piece_count(p, "settlement"),
    corners = g:corners(5), corner_pieces = g:corner_pieces(5), neighbors = g:hex_neighbors(5), hexes_at = g:hexes_at(1),
    numbered = g:hexes_numbered(8), hex_count = g:hex_count(),
    option = g:option("victory_points"), var = g:get("played_dev"), stored = stored, entries = entries,
    stored_types = math.type(stored[1]) .. " " .. type(stored[3][4]) .. " " .. math.type(stored.n[1]),
    harbors = { g:harbors_of(1), g:harbors_of(2), g:harbors_of(3), g:harbors_of(4) },
    trail = { g:longest_trail(1, "road"), g:longest_trail(2, "road"), g:longest_trail(3, "road"), g:longest_trail(4, "road") },
    dice = g:roll(3),
    -- g:holds: the bank holds one ore; nobody holds 99; every zone holds nothing at all.
    holds = { g:holds(nil, "bank", { ore = 1, grain = 0 }), g:holds(p, "hand", { ore = 99 }), g:holds(p, "hand", {}),
      g:holds(p, "hand", { ore = g:count(p, "hand", "ore") }), g:holds(p, "hand", { ore = g:count(p, "hand", "ore") + 1 }) },
    -- g:lacks: what the hand lacks of a price, and what the price asks for in all.
    lacks = { g:lacks(p, "hand", { ore = g:count(p, "hand", "ore") + 2, grain = 0 }) },
    lacks_none = { g:lacks(p, "hand", {}) },
    lacks_bank = { g:lacks(nil, "bank", { brick = 1, ore = 99 }) },
    -- g:open_intersections(spacing, seat): for every seat and none, spacing 2 and 1.
    open = { g:open_intersections(2, 1), g:open_intersections(2, 2), g:open_intersections(2, 3), g:open_intersections(2, 4),
      g:open_intersections(1, 1), g:open_intersections(1, 3), g:open_intersections(2), g:open_intersections(1) },
  })
end)

act("bad_count", function(g, p) g:count(p, "pocket") end) -- bad_count
act("bad_hex", function(g) g:hex(999) end) -- bad_hex
act("bad_color", function(g) g:color(9) end) -- bad_color
act("bad_at", function(g) g:at("hex", 1) end) -- bad_at
act("bad_option", function(g) g:option("roads_cost") end) -- bad_option
act("bad_cards", function(g) g:cards(nil, "hand") end) -- bad_cards
act("bad_supply", function(g, p) g:supply(p, "castle") end) -- bad_supply
act("bad_harbors", function(g) g:harbors_of(9) end) -- bad_harbors
act("bad_corner_pieces", function(g) g:corner_pieces(0) end) -- bad_corner_pieces
act("bad_get", function(g) g:get("stored", {}) end) -- bad_get
act("bad_roll", function(g) g:roll(1001) end) -- bad_roll
act("bad_trail", function(g) g:longest_trail(9, "road") end) -- bad_trail
act("bad_trail_piece", function(g) g:longest_trail(1, "castle") end) -- bad_trail_piece
act("bad_holds", function(g, p) g:holds(p, "hand", { gold = 1 }) end) -- bad_holds
act("bad_holds_count", function(g, p) g:holds(p, "hand", { ore = 1.5 }) end) -- bad_holds_count
act("bad_holds_zone", function(g, p) g:holds(p, "pocket", {}) end) -- bad_holds_zone
act("bad_lacks", function(g, p) g:lacks(p, "hand", { gold = 1 }) end) -- bad_lacks
act("bad_lacks_count", function(g, p) g:lacks(p, "hand", { ore = 1.5 }) end) -- bad_lacks_count

-- The writers answered by C functions too: `write` uses each with what its method takes,
-- values a fast path leaves to the method (a table, a float seat, a number for a string)
-- included.
act("write", function(g, p)
  g:set("w_int", 7); g:set("w_float", 2.0); g:set("w_bool", false); g:set("w_str", "seven")
  g:set("w_table", { 1, 2 }); g:set("w_gone", 1); g:set("w_gone", nil)
  local holes = {}
  for _, k in ipairs({ 2, 3, 4, 6 }) do holes[k] = k * 10 end
  g:set("w_nested", { list = { "a", { b = true } }, [7] = 2.5, holes = holes, empty = {} })
  g:set_phase("main"); g:set_phase(5); g:set_phase("trade")
  g:set_current(2.0); g:set_current(1)
  g:set_turn(g:turn() + 1)
  g:log("the writers ran"); g:log(42)
  g:log("%s holds %d%% of %s", "red", 50, 2.5); g:log("%s: %d", g:color(p), 7.0)
  g:move(nil, "bank", p, "hand", "ore", 2)
  g:move(nil, "bank", p, "hand", "wool")
  g:move(p, "hand", nil, "bank", "ore")
  g:_record("written")
end)

act("bad_move", function(g, p) g:move(p, "hand", nil, "bank", "ore", 99) end) -- bad_move
act("bad_move_card", function(g, p) g:move(nil, "bank", p, "hand", "gold") end) -- bad_move_card
act("bad_set_current", function(g) g:set_current(9) end) -- bad_set_current
act("bad_set_turn", function(g) g:set_turn(-1) end) -- bad_set_turn
act("bad_log", function(g) g:log({}) end) -- bad_log
act("bad_log_format", function(g) g:log("%d cards", "two") end) -- bad_log_format
act("bad_log_arg", function(g) g:log("%s", {}) end) -- bad_log_arg
act("bad_set", function(g) g:set("f", function() end) end) -- bad_set
act("bad_set_nested", function(g) g:set("f", { ok = 1, deep = { fn = print } }) end) -- bad_set_nested
act("bad_set_key", function(g) g:set("f", { [1.5] = true }) end) -- bad_set_key
-- A `when` may not write: listing legal actions leaves the state as it was.
action { name = "sneaky", syntax = "sneaky", when = function(g) g:set("sneaky", 1) return true end, apply = function() end }

-- g:listens (a method of the prelude): base listens to "knights_changed" and nobody to
-- "built" (helpers would).
act("listening", function(g, p)
  g:set("listening", { g:listens("knights_changed"), g:listens("built"), g:listens("no such event") })
end)

-- g:price (a method of the prelude): the "cost" filter's price, the same table each call
-- while only declared prices make it (read-only either way; bad_price_write).
act("prices", function(g, p)
  local out = {}
  for _, what in ipairs({ "road", "settlement", "city", "development", "castle" }) do
    local price, filtered = g:price(what, p), g:filter("cost", {}, what, p)
    local words = {}
    for _, k in ipairs({ "brick", "lumber", "wool", "grain", "ore" }) do
      if price[k] ~= filtered[k] then words[#words + 1] = "differs" end
      if price[k] then words[#words + 1] = k .. price[k] end
    end
    out[#out + 1] = table.concat(words, " ")
  end
  out[#out + 1] = g:price("road", p) == g:price("road", p)
  g:set("prices", out)
end)
act("bad_price_write", function(g, p) g:price("road", p).brick = 5 end) -- bad_price_write

-- g:selections and g:selection (src/script/api_cards.rs): the list, each way drawn from it
-- by its place, and the edges (nothing to pick, no way to pick).
local KINDS = { "brick", "lumber", "wool", "grain", "ore" }
local function show(pick)
  if pick == nil then return "nil" end
  local words = {}
  for _, k in ipairs(KINDS) do
    if pick[k] then words[#words + 1] = k .. pick[k] end
  end
  return table.concat(words, " ")
end
local function shown(list)
  local out = {}
  for i, pick in ipairs(list) do out[i] = show(pick) end
  return table.concat(out, ", ")
end
act("selections", function(g)
  local hand = { brick = 2, lumber = 3, wool = 1, ore = 4 }
  local all = g:selections(5, KINDS, hand)
  local drawn_alike = true
  for i, pick in ipairs(all) do
    if show(g:selection(5, KINDS, hand, (i - 0.5) / #all)) ~= show(pick) then drawn_alike = false end
  end
  g:set("selections", {
    within = shown(g:selections(2, { "brick", "ore", "wool" }, { brick = 1, ore = 2 })),
    any = shown(g:selections(2, { "brick", "ore" })),
    none = shown(g:selections(0, KINDS, hand)), none_count = #g:selections(0, KINDS, hand),
    too_many = #g:selections(11, KINDS, hand), too_many_drawn = show(g:selection(11, KINDS, hand, 0.5)),
    count = #all, drawn_alike = drawn_alike, last = show(g:selection(5, KINDS, hand, 0.999999)),
  })
end)
act("bad_selections_kind", function(g) g:selections(1, { "gold" }) end) -- bad_selections_kind
act("bad_selections_twice", function(g) g:selections(1, { "ore", "ore" }) end) -- bad_selections_twice
act("bad_selections_n", function(g) g:selections(-1, { "ore" }) end) -- bad_selections_n
act("bad_selections_long", function(g) g:selections(60, KINDS) end) -- bad_selections_long
act("bad_selection_r", function(g) g:selection(1, { "ore" }, nil, 1) end) -- bad_selection_r

-- g:trades and g:trade_at (src/script/api_cards.rs): each group given for each other kind
-- held where it is taken from (a zone by name, a table of counts, anything), each trade
-- drawn by its place, and the edges.
local function trade_text(t)
  if t == nil then return "nil" end
  return show(t[1]) .. ">" .. show(t[2])
end
local function trades_text(list)
  local out = {}
  for i, t in ipairs(list) do out[i] = trade_text(t) end
  return table.concat(out, ", ")
end
act("trades", function(g)
  local gives = { { ore = 4 }, { brick = 1, wool = 2 } }
  local all = g:trades(gives, KINDS, { brick = 1, lumber = 0, wool = 5, ore = 2 })
  local drawn_alike = true
  for i, t in ipairs(all) do
    if trade_text(g:trade_at(gives, KINDS, { brick = 1, lumber = 0, wool = 5, ore = 2 }, (i - 0.5) / #all)) ~= trade_text(t) then
      drawn_alike = false
    end
  end
  g:set("trades", {
    counts = trades_text(all), drawn_alike = drawn_alike,
    any = trades_text(g:trades({ { grain = 2 } }, { "ore", "grain", "wool" })),
    bank = #g:trades({ { ore = 4 } }, KINDS, "bank"),
    none = #g:trades({}, KINDS, "bank"), none_drawn = trade_text(g:trade_at({}, KINDS, "bank", 0.5)),
    last = trade_text(g:trade_at(gives, KINDS, nil, 0.999999)),
  })
end)
act("bad_trades_kind", function(g) g:trades({ { gold = 1 } }, KINDS) end) -- bad_trades_kind
act("bad_trades_count", function(g) g:trades({ { ore = 0 } }, KINDS) end) -- bad_trades_count
act("bad_trades_group", function(g) g:trades({ "ore" }, KINDS) end) -- bad_trades_group
act("bad_trades_twice", function(g) g:trades({ { ore = 1 } }, { "wool", "wool" }) end) -- bad_trades_twice
act("bad_trades_zone", function(g) g:trades({ { ore = 1 } }, KINDS, "vault") end) -- bad_trades_zone
act("bad_trades_zone_nothing_given", function(g) g:trades({}, KINDS, "vault") end) -- bad_trades_zone_nothing_given
act("bad_trade_at_r", function(g) g:trade_at({ { ore = 1 } }, KINDS, nil, -0.5) end) -- bad_trade_at_r

-- g:log's `%c`: a table of card counts, in the order the variant declares its cards.
act("log_cards", function(g)
  g:log("%s trades %c to the bank for %c", "red", { ore = 4 }, { brick = 1, wool = 0 })
  g:log("%c and %c", {}, { knight = 1, grain = 2, brick = 1 })
end)
act("bad_log_cards_kind", function(g) g:log("%c", { gold = 1 }) end) -- bad_log_cards_kind
act("bad_log_cards_count", function(g) g:log("%c", { ore = -1 }) end) -- bad_log_cards_count
act("bad_log_cards_spec", function(g) g:log("%s", { ore = 1 }) end) -- bad_log_cards_spec
act("bad_log_cards_arg", function(g) g:log("%c", 3) end) -- bad_log_cards_arg
act("bad_selection_huge", function(g) g:selection(1000000000, KINDS, nil, 0.5) end) -- bad_selection_huge
act("bad_selections_empty_huge", function(g) g:selections(1000000000000, {}) end) -- bad_selections_empty_huge
