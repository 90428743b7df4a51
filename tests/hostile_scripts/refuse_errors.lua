-- tests/refusals.rs: errors that lost their place: raised in an action's `options` or in a
-- `to_act` filter, with a value that is not a message, or by a library function writing
-- to a frozen table. Each must name its file:line and the rule it was raised in.
variant {
  extends = "base",
  description = "base plus rules whose errors must keep their place (refusal tests)",
}

-- `options` gone wrong, once `g:get("broken")` names how.
local function broken(g, how) return g:get("broken") == how end
action {
  name = "listing",
  syntax = "listing <int>",
  options = function(g, p)
    if broken(g, "number") then return 5 end -- OPTIONS NUMBER HERE
    if broken(g, "string") then return "abc" end
    if broken(g, "map") then return { five = 5 } end
    if broken(g, "entry") then return { 1, "two" } end
    if broken(g, "level") then error("options failed a level up", 2) end
    if broken(g, "assert") then assert(false, { why = "no" }) end -- OPTIONS ASSERT HERE
    return {}
  end,
  apply = function() end,
}
-- Cards as options, written every way a rule may write them: the engine reads each as the
-- counts above 0, by card name, whatever the table's order or a count's number type (and a
-- number key as its text, as mlua reads it).
action {
  name = "pick",
  syntax = "pick <cards>",
  options = function(g, p)
    if broken(g, "cards") then return { { ore = 1 }, { [1] = 2 } } end
    -- A count past what the engine counts (2^32 + 1): an error, never a wrap to 1.
    if broken(g, "count") then return { { ore = 4294967297 } } end
    return { { ore = 2, wool = 0 }, { lumber = 1.0, brick = 1, grain = 1 }, {}, { wool = 3, ore = -1 } }
  end,
  apply = function() end,
}
action {
  name = "break",
  syntax = "break <word>",
  apply = function(g, p, how) g:set("broken", how) end,
}

-- A `to_act` filter that fails once armed.
filter("to_act", "refuse_errors.to_act", function(g, seat)
  local how = g:get("to_act")
  if how == "error" then error("to_act failed") end -- TO_ACT ERROR HERE
  if how == "level" then error("to_act failed a level up", 2) end -- TO_ACT LEVEL HERE
  if how == "table" then error({ seat = seat }) end -- TO_ACT TABLE HERE
  return seat
end)
action {
  name = "misdirect",
  syntax = "misdirect <word>",
  apply = function(g, p, how) g:set("to_act", how) end,
}

-- Error values that are not messages.
local function raise(name, fn)
  action { name = name, syntax = name, apply = function(g) g:set("touched", true) fn() end }
end
raise("assert_table", function() assert(false, { code = 7, reason = "spoiled" }) end) -- ASSERT TABLE HERE
raise("assert_function", function() assert(false, function() end) end) -- ASSERT FUNCTION HERE
raise("assert_string", function() assert(nil, "plain words") end) -- ASSERT STRING HERE
raise("error_table", function() error({ code = 7, [1] = "first", nested = {} }) end) -- ERROR TABLE HERE
raise("error_function", function() error(print) end) -- ERROR FUNCTION HERE
raise("error_big", function()
  local t = {}
  for i = 1, 100 do t[i] = i end
  error(t) -- ERROR BIG HERE
end)
raise("error_tostring", function()
  error(setmetatable({}, { __tostring = function() return "a custom error" end })) -- ERROR TOSTRING HERE
end)
