-- Breach: a weak table shows when the collector ran (its entries vanish then), which
-- depends on how often legal actions were listed: the same commands, another game.
-- expect: runtime
-- message: __mode
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local seen = setmetatable({}, { __mode = "k" }) -- stopped here
    seen[{}] = true
  end,
}
