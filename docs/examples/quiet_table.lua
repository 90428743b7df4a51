-- Quiet table: no trading between players; everyone trades 3:1 with the bank, and
-- nobody may buy a development card in the first round.
variant {
  extends = "base",
  description = "CATAN without trades between players, 3:1 with the bank, no cards in round one.",
}

for _, name in ipairs({ "offer", "accept", "decline", "counter", "confirm", "cancel" }) do
  remove_action(name)
end

filter("trade_ratio", "quiet_table.ratio", function(g, ratio, p, resource)
  return math.min(ratio, 3)
end)

wrap_action("buy", {
  legal = function(original)
    return function(g, p)
      if g:turn() <= g:players() then return deny("no development cards in the first round") end
      return original(g, p)
    end
  end,
})
