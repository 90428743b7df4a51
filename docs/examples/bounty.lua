-- A new development card, Bounty: take 2 cards of one resource from the bank. It needs
-- what base exports in `catan`, and no line of base.lua copied.
variant { extends = "base", description = "Base CATAN with a Bounty development card." }

variant { cards = { development = { "bounty" } } }

-- Two Bounty cards join the deck (it is shuffled after every filter ran).
filter("development_deck", "bounty.deck", function(g, deck)
  deck.bounty = 2
  return deck
end)

action {
  name = "play_bounty",
  phases = catan.PLAY_PHASES,                -- any time in your turn, even before the roll
  syntax = "play bounty <resource>",
  help = "play Bounty: take 2 cards of one resource from the bank",
  -- One development card a turn, not one bought this turn, and you must hold one.
  when = function(g, p) return catan.may_play(g, p, "bounty") end,
  options = function(g, p) return catan.RESOURCES end,
  legal = function(g, p, r)
    if g:count(nil, "bank", r) < 2 then return deny("the bank has fewer than 2 " .. r) end
    return true
  end,
  apply = function(g, p, r)
    catan.use_card(g, p, "bounty")           -- to the box; emits played_development
    g:move(nil, "bank", p, "hand", r, 2)
    g:log(catan.name(g, p) .. " plays Bounty and takes 2 " .. r)
  end,
}
