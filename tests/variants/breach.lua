-- tests/sandbox.rs: the breaches a stress run found (issue 10). Each action first changes
-- the state (`touch`), then tries to crash the engine, escape the limits, observe
-- something that differs between runs, or change the rules outside the hooks. Every one
-- must end in a clear error that leaves the game exactly as it was.

variant {
  extends = "base",
  description = "base plus actions that breach the sandbox's limits (sandbox tests)",
}

local function touch(g, p)
  g:set("touched", true)
  g:move(nil, "bank", p, "hand", "ore", 2)
end

local function act(name, apply)
  action { name = name, syntax = name, apply = function(g, p) touch(g, p) apply(g, p) end }
end

-- Crashes ------------------------------------------------------------------------------
act("cycle", function(g)
  local t = {}
  t.self = t
  g:set("cycle", t)
end)
act("deep", function(g)
  local t = {}
  for _ = 1, 12000 do t = { t } end
  g:set("deep", t)
end)
act("huge_roll", function(g) g:roll(4294967295) end)
act("big_roll", function(g) g:roll(300000000) end)
-- A one-hex board replaces the 19-hex board mid-game.
action {
  name = "shrink",
  syntax = "shrink",
  apply = function(g) g:build_board({ hexes = { { q = 0, r = 0, terrain = "desert" } } }) end,
}

-- Work the count hook cannot see ------------------------------------------------------
act("calls", function(g)
  for _ = 1, 2000000 do g:players() end
end)
act("backtrack", function(g)
  string.find(string.rep("a", 40), ".-.-.-.-.-.-.-.-b")
end)
act("gsub_loop", function(g)
  local s = string.rep("ab", 5000)
  for _ = 1, 100000 do s:gsub("a", "a") end
end)
act("rep_loop", function(g)
  for _ = 1, 2000 do local _ = string.rep("x", 1 << 20) end
end)
act("format_loop", function(g)
  local big = string.rep("x", 1 << 20)
  for _ = 1, 2000 do local _ = string.format("%s", big) end
end)
-- Copies and loops inside the C library and the `..` operator: one instruction each to
-- the VM, megabytes or millions of steps of work.
local mib = string.rep("x", 1 << 20)
act("concat_loop", function(g)
  for _ = 1, 20000 do local _ = mib .. "y" end
end)
act("upper_loop", function(g)
  for _ = 1, 20000 do local _ = mib:upper() end
end)
act("sub_loop", function(g)
  for _ = 1, 20000 do local _ = mib:sub(2) end
end)
act("table_concat_loop", function(g)
  local t = {}
  for i = 1, 1024 do t[i] = string.rep("x", 1024) end
  for _ = 1, 20000 do local _ = table.concat(t) end
end)
act("insert_front", function(g)
  local t = {}
  for i = 1, 200000 do table.insert(t, 1, i) end
end)
act("move_huge", function(g)
  table.move({}, 1, 1 << 40, 1)
end)
act("sort_loop", function(g)
  local t = {}
  for i = 1, 100000 do t[i] = (i * 7919) % 100003 end
  for _ = 1, 2000 do table.sort(t) end
end)
-- A board of MAX_HEXES hexes, then a loop over the placement query.
local function wide_board(n)
  local hexes, side = {}, math.ceil(math.sqrt(n))
  for i = 0, n - 1 do hexes[#hexes + 1] = { q = i % side, r = i // side, terrain = "desert" } end
  return { hexes = hexes }
end
act("open_loop", function(g)
  g:build_board(wide_board(1000))
  for _ = 1, 30000 do g:open_intersections(2) end
end)
act("vast_board", function(g) g:build_board(wide_board(10000)) end)

-- Memory the Lua cap cannot see --------------------------------------------------------
act("log_flood", function(g)
  local line = string.rep("x", 1000)
  for _ = 1, 100000 do g:log(line) end
end)
-- 20 MiB of messages: within one call's cap, but a game of such actions grows without
-- bound unless the whole history is capped.
act("log_20mib", function(g)
  local line = string.rep("x", 1 << 20)
  for _ = 1, 20 do g:log(line) end
end)
act("set_big", function(g)
  local t = {}
  for i = 1, 1000000 do t[i] = { i } end
  g:set("big", t)
end)
act("set_flood", function(g)
  local chunk = string.rep("x", 100000)
  for i = 1, 1000 do g:set("k" .. i, chunk) end
end)
act("overflow", function(g, p)
  g:create(p, "hand", "ore", 65535)
  g:create(p, "hand", "ore", 65535)
end)

-- What a script observes ---------------------------------------------------------------
action {
  name = "observe",
  syntax = "observe",
  apply = function(g)
    g:log("observed " .. tostring({}) .. " " .. tostring(print) .. " " .. string.format("%s", {}))
  end,
}
act("address", function(g) g:log(string.format("%p", {})) end)
act("table_keys", function(g)
  local t = { [{}] = 1, [{}] = 2 }
  for k in pairs(t) do g:log(tostring(k)) end
end)

-- Tampering ----------------------------------------------------------------------------
local TAMPER = {
  g_method = function(g) g.roll = function() return { 6, 6 } end end,
  g_rawset = function(g) rawset(g, "roll", function() return { 6, 6 } end) end,
  g_metatable = function(g) setmetatable(g, nil) end,
  ipairs = function() ipairs = function() return function() end end end,
  new_global = function() leaked = 1 end,
  string_lib = function() string.upper = function(s) return s end end,
  string_metatable = function() getmetatable("").__index = {} end,
  table_lib = function() table.insert = nil end,
  -- Every way a write reaches a table: by computed key, by integer, from C.
  g_computed_key = function(g) local k = "ro" .. "ll"; g[k] = function() return { 6, 6 } end end,
  g_integer_key = function(g) g[1] = true end,
  g_from_c = function(g) table.insert(g, function() end) end,
  math_from_c = function() table.move({ 1 }, 1, 1, 1, math) end,
  register_hook = function() on("rolled", "breach.late", function() end) end,
  replace_hook = function() replace_hook("base.victory", function() end) end,
}
action {
  name = "tamper",
  syntax = "tamper <word>",
  apply = function(g, p, what)
    touch(g, p)
    TAMPER[what](g)
  end,
}

-- Errors that lose their location ------------------------------------------------------
act("error_table", function(g)
  error({}) -- ERROR TABLE HERE
end)
act("error_nil", function(g)
  error() -- ERROR NIL HERE
end)
act("misuse", function(g)
  g:move(nil, "bank", 1, "hand", "no_such_card") -- MISUSE HERE
end)

-- A filter that answers the wrong type: after `misdirect`, nobody can be asked to act.
filter("to_act", "breach.to_act", function(g, seat) -- BAD TO_ACT HERE
  if g:get("misdirect") then return "red" end
  if g:get("scribble") then g:set("scribbled", true) end -- TO_ACT WRITES HERE
  return seat
end)
action { name = "misdirect", syntax = "misdirect", apply = function(g) g:set("misdirect", true) end }
-- The engine's read-only switch is the prelude's alone: a variant finds no such global.
action { name = "switch", syntax = "switch", apply = function(g)
  g:set("switch", type(__read_only) .. " " .. type(set_read_only))
end }
-- Asking who acts may not change the game, after an action as anywhere else.
action { name = "scribble", syntax = "scribble", apply = function(g) g:set("scribble", true) end }

-- A sequence hook that fails after one action: the error names the hook.
sequence("after_action", "breach.after", function(g, seat, name)
  if name == "after_fail" then error("after_action failed") end -- AFTER FAILS HERE
end)
act("after_fail", function() end)
