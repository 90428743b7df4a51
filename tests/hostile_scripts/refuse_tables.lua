-- tests/refusals.rs: actions that change what the rules are made of (a table of the rules,
-- a variable of a file, the string metatable, the view of `g` while listing) and then
-- fail. Each first changes the state (`touch`), so the engine must put it back; the rules
-- must come out as they were, which `peek` shows.
variant {
  extends = "base",
  description = "base plus actions that change the rules' own tables and then fail (refusal tests)",
}

local function touch(g, p)
  g:set("touched", true)
  g:move(nil, "bank", p, "hand", "ore", 2)
end

-- Taken while the file loads, before anything is frozen.
local string_meta = getmetatable("")
local COSTS = { road = { "brick", "lumber" } }
local tally = 0
local function bump() tally = tally + 1 end -- TALLY BUMPED HERE

-- An action whose definition holds its bonus: the definition is a table of the rules.
local bonus = { name = "bonus", syntax = "bonus", amount = 1 }
bonus.apply = function(g, p)
  touch(g, p)
  bonus.amount = bonus.amount + 4 -- BONUS CHANGED HERE
  error("refused after changing the action's definition")
end
action(bonus)

local function fails(name, change)
  action {
    name = name,
    syntax = name,
    apply = function(g, p)
      touch(g, p)
      change(g)
      error("refused after the change")
    end,
  }
end

fails("export", function() table.insert(catan.RESOURCES, "brick") end) -- EXPORT CHANGED HERE
fails("cost", function() COSTS.road[3] = "brick" end) -- COST CHANGED HERE
fails("string_meta", function()
  string_meta.__index = { upper = function() return "tampered" end } -- STRING META CHANGED HERE
end)
fails("tally", function() bump() end)
fails("set_meta", function()
  setmetatable(catan, { __index = function() return "tampered" end }) -- SETMETATABLE HERE
end)
fails("raw_export", function() rawset(catan.RESOURCES, 1, "gold") end) -- RAWSET HERE
fails("env", function() _ENV = { error = error } end) -- ENV CHANGED HERE
fails("sort_export", function() table.sort(catan.RESOURCES, function(a, b) return a > b end) end) -- SORT HERE
fails("remove_export", function() table.remove(catan.RESOURCES) end) -- REMOVE HERE
fails("move_export", function() table.move({ "x" }, 1, 1, 1, catan.RESOURCES) end) -- TABLE MOVE HERE
fails("insert_string", function() table.insert(string, "x") end) -- INSERT STRING HERE
-- A value g:cached keeps is handed out again: a box kept for the rules' whole life.
local function make_box() return { n = 0 } end
local function box(g) return g:cached(make_box, nil, "constants") end
action {
  name = "kept",
  syntax = "kept",
  apply = function(g, p)
    touch(g, p)
    local b = box(g)
    b.n = b.n + 1 -- KEPT CHANGED HERE
    error("refused after changing a kept value")
  end,
}

-- A kept value may hold a closure over a local of a function still running when it was
-- frozen (one value kept while another is computed): that variable is sealed as well, or
-- the closure would count from call to call, outside the game state.
local function hand_back(g, f) return { f = f } end
local function make_counter(g)
  local n = 0
  local kept = g:cached(hand_back, function() n = n + 1; return n end) -- COUNTER BUMPED HERE
  return kept -- (not a tail call: `n` is still open when the inner value is frozen)
end
action {
  name = "count_kept",
  syntax = "count_kept",
  apply = function(g, p)
    touch(g, p)
    g:set("counted", g:cached(make_counter, nil, "constants").f())
  end,
}

-- What the rules look like now.
action {
  name = "peek",
  syntax = "peek",
  apply = function(g)
    g:log("bonus %d; resources %s; road %s; upper %s; tally %d; catan.x %s; type %s; kept %d", bonus.amount,
      table.concat(catan.RESOURCES, ","), table.concat(COSTS.road, ","), ("abc"):upper(), tally,
      tostring(catan.x), type(error), box(g).n)
  end,
}

-- Listing: a `when` that writes to `g` (the view rules see while actions are listed), to
-- a table of the rules, or to a variable of its file.
local LISTED = {}
local listed = 0
action {
  name = "scribble",
  syntax = "scribble",
  when = function(g, p)
    local how = g:get("scribble")
    if how == "g" then g.current = function() return 3 end end -- G WRITTEN HERE
    if how == "table" then LISTED.n = (LISTED.n or 0) + 1 end -- TABLE WRITTEN HERE
    if how == "variable" then listed = listed + 1 end -- VARIABLE WRITTEN HERE
    if how == "kept" then local b = box(g); b.n = b.n + 1 end -- KEPT WRITTEN HERE
    return false
  end,
  apply = function() end,
}
action {
  name = "arm",
  syntax = "arm <word>",
  apply = function(g, p, how) g:set("scribble", how) end,
}
-- What listing left behind: how many listings the table and the variable saw.
action {
  name = "drift",
  syntax = "drift",
  apply = function(g)
    g:set("drift", (LISTED.n or 0) + listed + box(g).n)
    g:log("drift %d", (LISTED.n or 0) + listed + box(g).n)
  end,
}

-- Locals of a function that runs during the game stay free: an iterator's count.
action {
  name = "count_up",
  syntax = "count_up",
  apply = function(g)
    local function counter()
      local n = 0
      return function() n = n + 1; if n <= 3 then return n end end
    end
    local sum = 0
    for i in counter() do sum = sum + i end
    local fresh = {}
    fresh.x = sum
    table.insert(fresh, sum)
    g:set("sum", fresh.x + fresh[1])
  end,
}
