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
