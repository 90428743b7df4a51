-- tests/pipeline.rs: actions that change the game and then fail or refuse.
variant {
  extends = "base",
  description = "base plus actions that fail halfway (pipeline tests)",
}

-- Moves cards, sets variables, logs, emits, and only then fails: nothing may remain.
action {
  name = "grab",
  syntax = "grab",
  apply = function(g, p)
    g:move(nil, "bank", p, "hand", "ore", 3)
    g:set("grabbed", true)
    g:pset(p, "grabbed", 3)
    g:set_phase("grabbing")
    g:log("grab is about to fail")
    g:emit("grabbed", { seat = p })
    error("grab failed on purpose") -- GRAB FAILS HERE
  end,
}

-- Like grab, but the failure is a misuse of the engine API (moving cards nobody has).
action {
  name = "overdraw",
  syntax = "overdraw",
  apply = function(g, p)
    g:move(nil, "bank", p, "hand", "wool", 2)
    g:move(p, "hand", nil, "bank", "ore", 99) -- OVERDRAW FAILS HERE
  end,
}

-- Draws random numbers and then fails: the draws must not be consumed.
action {
  name = "gamble",
  syntax = "gamble",
  apply = function(g, p)
    g:roll(2)
    g:random(100)
    error("gamble lost")
  end,
}

-- Refuses every number but 7, from its legal check. The refusal is kept in a local
-- first, so deny's caller is still on the stack when it looks up its line.
action {
  name = "picky",
  syntax = "picky <int>",
  legal = function(g, p, n)
    if n ~= 7 then
      local refused, why = deny("only 7 will do, not " .. n) -- PICKY DENIES HERE
      return refused, why
    end
    return true
  end,
  apply = function(g, p, n)
    g:set("picked", n)
    g:log("picked " .. n)
  end,
}

-- The same written the usual way, `return deny(...)`: a tail call in Lua.
action {
  name = "choosy",
  syntax = "choosy <int>",
  legal = function(g, p, n)
    if n ~= 3 then
      return deny("only 3 will do") -- CHOOSY DENIES HERE
    end
    return true
  end,
  apply = function(g, p, n) g:set("chosen", n) end,
}

-- Refused with a reason worded by a function, `deny(fn, ...)`: called only when a player is
-- refused, never while legal actions are listed or drawn (where its write would fail; the
-- count in the reason shows it ran once).
local function word(g, a, b)
  local worded = (g:get("worded") or 0) + 1
  g:set("worded", worded)
  return a .. " and " .. b .. " (" .. worded .. ")"
end
action {
  name = "wordy",
  syntax = "wordy",
  legal = function(g, p)
    return deny(word, g, "this", "that") -- WORDY DENIES HERE
  end,
  apply = function(g, p) end,
}

-- Only possible after the roll.
action {
  name = "late",
  syntax = "late",
  not_now = "late only after the roll",
  when = function(g, p) return g:phase() == "main" end, -- LATE WHEN HERE
  apply = function(g, p) g:set("late", true) end,
}
