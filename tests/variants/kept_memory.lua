-- A variant for tests/sandbox.rs: what `g:cached` keeps while legal actions are listed
-- must not decide whether a later action fits in the Lua memory cap, or the same commands
-- would give a different game depending on how often the legal actions were listed (and
-- a save, replayed without the listings, could differ from the game that made it).

variant {
  extends = "base",
  description = "base plus a listing that keeps a big value and an action that needs room",
}

-- 48 MiB, three eighths of the Lua memory cap: kept by `g:cached` for as long as the rules are loaded.
-- (Built from 64 KiB pieces: `string.rep` is charged a unit per repetition.)
local function big() return string.rep(string.rep("k", 1 << 16), 48 << 4) end

-- Legal whenever it is listed: its check keeps the big value. Never performed.
action {
  name = "peek",
  syntax = "peek",
  legal = function(g, p) return #g:cached(big, nil, "constants") > 0 end,
  apply = function(g, p) end,
}

-- Needs twice as much again for a moment (the result is copied out of its buffer): fits unless the big value is kept too.
action {
  name = "grab",
  syntax = "grab",
  apply = function(g, p)
    g:set("grabbed", #string.rep(string.rep("y", 1 << 16), 48 << 4))
  end,
}
