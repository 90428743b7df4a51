-- A hostile variant for tests/sandbox.rs: every action here tries to escape or exhaust
-- the sandbox. Each first changes the state, so a test can check that the failed action
-- left the game exactly as it was.

variant {
  extends = "base",
  description = "base plus actions that misbehave (sandbox tests)",
}

local function touch(g, p)
  g:set("touched", true)
  g:move(nil, "bank", p, "hand", "ore", 2)
end

-- An endless loop inside an action's apply.
action {
  name = "spin",
  syntax = "spin",
  apply = function(g, p)
    touch(g, p)
    while true do end
  end,
}

-- A table that grows until the memory cap stops it.
action {
  name = "hog",
  syntax = "hog",
  apply = function(g, p)
    touch(g, p)
    local t = {}
    local chunk = string.rep("x", 1 << 20)
    local i = 0
    while true do
      i = i + 1
      t[i] = chunk .. i
    end
  end,
}

-- A table of small entries grows until the memory cap or the budget stops it.
action {
  name = "hog_small",
  syntax = "hog_small",
  apply = function(g, p)
    touch(g, p)
    local t = {}
    for i = 1, math.maxinteger do t[i] = { i } end
  end,
}

-- Everything a script must not reach, by name.
local ESCAPES = {
  os_execute = function() return os.execute("echo escaped > /tmp/catan-sandbox-escape") end,
  os_getenv = function() return os.getenv("HOME") end,
  os_time = function() return os.time() end,
  io_open = function() return io.open("/etc/passwd") end,
  io_write = function() return io.write("escaped") end,
  require = function() return require("os") end,
  load = function() return load("return 1")() end,
  loadstring = function() return loadstring("return 1") end,
  dofile = function() return dofile("/etc/passwd") end,
  loadfile = function() return loadfile("/etc/passwd") end,
  random = function() return math.random(6) end,
  randomseed = function() return math.randomseed(42) end,
  debug = function() return debug.getinfo(1) end,
  package = function() return package.loaded end,
  collectgarbage = function() return collectgarbage("count") end,
  pcall = function() return pcall(error, "swallowed") end,
  xpcall = function() return xpcall(error, print) end,
}

action {
  name = "escape",
  syntax = "escape <word>",
  apply = function(g, p, what)
    touch(g, p)
    local f = ESCAPES[what]
    if not f then error("no escape named " .. what) end
    f()
    g:set("escaped", what)
  end,
}

-- An endless loop in a legal check (the action takes an argument, so listing the legal
-- actions never calls it).
action {
  name = "stall",
  syntax = "stall <int>",
  legal = function(g, p, n)
    while true do end
  end,
  apply = function(g, p, n) g:set("stalled", n) end,
}

-- Work of a known size: `burn n` loops n times in its legal check and n times more in its
-- apply; `burn_once n` loops n times in its apply alone. The checks and the action each
-- have the whole budget (the prelude's perform), so `burn n` fits wherever `burn_once n` does.
local function burn(n)
  local x = 0
  for i = 1, n do x = x + i end
  return x
end

action {
  name = "burn",
  syntax = "burn <int>",
  legal = function(g, p, n) return burn(n) >= 0 end,
  apply = function(g, p, n) g:set("burnt", burn(n)) end,
}

action {
  name = "burn_once",
  syntax = "burn_once <int>",
  apply = function(g, p, n) g:set("burnt", burn(n)) end,
}

-- pairs must walk keys in a fixed (sorted) order: numbers, then strings.
action {
  name = "order",
  syntax = "order",
  apply = function(g, p)
    local t = {}
    for _, k in ipairs({ "zeta", "alpha", "mike", "bravo", "yankee", "echo" }) do t[k] = true end
    t[30] = true; t[2] = true; t[10] = true
    local keys = {}
    for k in pairs(t) do keys[#keys + 1] = tostring(k) end
    g:log("order: " .. table.concat(keys, " "))
  end,
}
