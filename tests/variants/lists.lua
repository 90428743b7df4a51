-- tests/stored_lists.rs: g:insert and g:remove on stored lists (docs/api.md, "Variables").
-- Each action does one thing; the test reads the vars it leaves.

variant {
  extends = "base",
  description = "base plus actions that use stored lists (tests)",
}

local function act(name, apply)
  action { name = name, syntax = name, apply = apply }
end

act("fill", function(g)
  g:insert("q", "b")                  -- a missing key starts a list
  g:insert("q", 1, { t = "a", n = 2 }) -- at the front
  g:insert("q", "d")                  -- after the last
  g:insert("q", 3, "c")               -- in between
end)

act("take", function(g)
  local first = g:remove("q", 1)
  local last = g:remove("q")
  g:set("took", { first.t, first.n, last, g:get("q", 1), g:get("q", 2) })
end)

act("drain", function(g)
  g:set("e", {}) -- the empty table g:set stores is an empty list to these
  g:insert("e", 5)
  local five, none = g:remove("e"), g:remove("e")
  g:set("drained", { five, none == nil, g:remove("nothing") == nil, g:get("nothing") == nil })
end)

act("bad_pos", function(g) g:insert("q", 9, "z") end) -- bad_pos
act("bad_pos_table", function(g) g:insert("q", {}, "z") end) -- bad_pos_table
act("bad_remove_pos", function(g) g:remove("q", 0) end) -- bad_remove_pos
act("bad_map", function(g) g:set("m", { a = 1 }); g:insert("m", 1) end) -- bad_map
act("bad_nil", function(g) g:insert("q", 1, nil) end) -- bad_nil
act("bad_function", function(g) g:insert("q", print) end) -- bad_function

-- g:set_entry(key, field, value): one entry, as `t[field] = value` and a whole g:set would
-- leave it. Each case writes "a<i>" by the entry and "b<i>" by the whole table.
local CASES = {
  { nil, 1, "x" },                 -- a missing key starts a list
  { nil, 7, 1 },                   -- or a map
  { nil, "k", true },
  { nil, 3, nil },                 -- nothing to take out: an empty table
  { { 1, 2, 3 }, 2, 20 },          -- replace in a list
  { { 1, 2, 3 }, 4, 4 },           -- append
  { { 1, 2, 3 }, 3, nil },         -- the last out
  { { 1 }, 1, nil },               -- the only one out: empty
  { { 1, 2, 3 }, 2, nil },         -- a gap: a map
  { { 1, 2, 3 }, 5, 5 },           -- past the end: a map
  { { 1, 2, 3 }, "k", { y = 1 } }, -- a name: a map
  { { 1, 2, 3 }, 9, nil },         -- nothing there
  { { a = 1, b = 2 }, "a", 3 },    -- replace in a map
  { { a = 1, b = 2 }, "c", { 1, 2 } },
  { { a = 1, b = 2 }, "a", nil },
  { { a = 1, [1] = 5 }, "a", nil }, -- keys 1..n left: a list again
  { { [2] = "b" }, 1, "a" },       -- keys 1..n made: a list
  { { a = 1 }, "z", nil },
  { {}, 1, 9 },
}

act("entries", function(g)
  for i, c in ipairs(CASES) do
    local start, field, value = c[1], c[2], c[3]
    g:set("a" .. i, start)
    g:set_entry("a" .. i, field, value)
    g:set("b" .. i, start)
    local t = g:get("b" .. i) or {}
    t[field] = value
    g:set("b" .. i, t)
  end
  g:set("cases", #CASES)
end)

act("tally", function(g)
  for _, sum in ipairs({ 7, 6, 7, 8, 7 }) do g:set_entry("rolls", sum, (g:get("rolls", sum) or 0) + 1) end
  g:set("seen", { g:get("rolls", 7), g:get("rolls", 6), g:get("rolls", 2) == nil })
end)

act("bad_entry_of_number", function(g) g:set("n", 5); g:set_entry("n", 1, 2) end) -- bad_entry_of_number
act("bad_entry_nil", function(g) g:set_entry("q", nil, 2) end) -- bad_entry_nil
act("bad_entry_table", function(g) g:set_entry("q", {}, 2) end) -- bad_entry_table
act("bad_entry_function", function(g) g:set_entry("q", 1, print) end) -- bad_entry_function
