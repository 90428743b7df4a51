-- Lucky rolls: on a 2 or a 12 every player draws a random resource card from the bank.
variant {
  extends = "base",
  description = "CATAN where a roll of 2 or 12 gives everyone a random resource card.",
}

-- Per-player state lives in the game (g:pset), never in a Lua table of this file.
sequence("setup", "lucky_rolls.init", function(g)
  for p = 1, g:players() do g:pset(p, "lucky_cards", 0) end
end)

on("rolled", "lucky_rolls.bonus", function(g, e)
  if e.sum ~= 2 and e.sum ~= 12 then return end
  g:log("a lucky roll: everyone draws a card from the bank")
  for p = 1, g:players() do
    -- The engine's seeded random number generator picks the card.
    local card = g:random_card(nil, "bank", "resource")
    if card then
      g:move(nil, "bank", p, "hand", card, 1)
      g:pset(p, "lucky_cards", g:pget(p, "lucky_cards") + 1)
      g:tell({ p }, "luck brings you " .. card)
    end
  end
end)

-- Shown with the other per-player facts (knights, road length, ...).
filter("describe", "lucky_rolls.describe", function(g, info, p)
  info.lucky_cards = g:pget(p, "lucky_cards")
  return info
end)
