-- Breach: a finalizer that writes to the game changes it whenever the collector runs,
-- so the same commands gave different games, and a replay differed from its game.
-- expect: runtime
-- message: __gc
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    setmetatable({}, { __gc = function() g:set("collected", true) end }) -- stopped here
  end,
}
