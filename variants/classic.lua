-- The Settlers of Catan, an older edition (../shared/rules/002): base CATAN with the older
-- rules where they differ. Everything else is base.lua, including the beginner board and its
-- stand-in starting pieces (blue's starred settlement pays brick, wool and ore, as the
-- rulebook's example says).

variant {
  extends = "base",
  description = "The Settlers of Catan, older rules: Soldier cards, victory point cards named as "
    .. "buildings and revealed at will, the robber never in the desert, roll then trade then build, "
    .. "Longest Road returned to the table on a tied break.",
  players = { min = 3, max = 4, default = 4 },
  cards = {
    development = { "soldier" },
    -- Victory Point Cards "such as the Market, Library, University, or Governor's House"; the
    -- rulebook text names four of the five, the fifth is the Chapel of the older decks.
    victory = { "market", "library", "university", "governors_house", "chapel" },
  },
  options = {
    { name = "combined_trade_build", type = "bool", default = false,
      doc = "Turn Overview: roll, then trade, then build, in that order; true: trade and build mixed" },
    { name = "robber_desert", type = "bool", default = false,
      doc = "Rolling a 7, Soldier Cards: the robber goes to a terrain hex other than the desert; true: the desert too" },
    { name = "longest_road_tie", type = "choice", choices = { "holder_keeps", "set_aside" }, default = "set_aside",
      doc = "Road, Exception: a settlement breaks the longest road and leaves equal longest roads: "
        .. "the card returns to the table (set_aside)" },
  },
}

local RESOURCES = { "brick", "lumber", "wool", "grain", "ore" }
local VICTORY = { "market", "library", "university", "governors_house", "chapel" }
local NAMES = { market = "the Market", library = "the Library", university = "the University",
                governors_house = "the Governor's House", chapel = "the Chapel" }
-- 25 development cards: 14 Soldiers, 5 victory point cards, 6 progress cards.
local DECK = { soldier = 14, market = 1, library = 1, university = 1, governors_house = 1, chapel = 1,
               road_building = 2, year_of_plenty = 2, monopoly = 2 }

replace_hook("base.supply", function(g)
  for _, r in ipairs(RESOURCES) do g:create(nil, "bank", r, 19) end
  for card, n in pairs(DECK) do g:create(nil, "deck", card, n) end
  g:shuffle(nil, "deck")
end)

-- Soldier Cards, instead of base's knights ------------------------------------------------

remove_action("play_knight")

-- Largest Army, as base's, counted in Soldiers.
local function update_largest_army(g, p) catan.update_largest_army(g, p, "soldier", "soldiers") end

action {
  name = "play_soldier",
  -- Playing Development Cards: one per turn, any time in your turn, not bought this turn.
  phases = { "roll", "main", "trade", "build" },
  syntax = "play soldier",
  help = "play a Soldier: move the robber and steal",
  when = function(g, p)
    return p == g:current() and not g:get("played_dev") and g:count(p, "dev", "soldier") > 0
  end,
  not_now = "you may play a Soldier in your turn, bought before this turn, one development card per turn",
  apply = function(g, p)
    g:set("played_dev", true)
    g:move(p, "dev", p, "played", "soldier", 1) -- played Soldiers remain face up
    g:emit("played_development", { seat = p, card = "soldier" })
    g:log(g:color(p) .. " plays a Soldier")
    update_largest_army(g, p)
    -- base's robber phase: move the robber, steal, then back to this phase.
    g:set("return_phase", g:phase())
    g:set_phase("robber")
  end,
}

-- Soldiers taken away by a variant (Helpers of Catan: Vincent): whoever now has more Soldiers
-- than the holder takes Largest Army (base's hook counts knights).
replace_hook("base.largest_army", function(g)
  local n = g:players()
  for i = 0, n - 1 do update_largest_army(g, (g:current() - 1 + i) % n + 1) end
end)

-- Victory point cards: any number per turn, even the turn they were bought ----------------

for _, card in ipairs(VICTORY) do
  action {
    name = "play_" .. card,
    phases = { "roll", "main", "trade", "build" },
    syntax = "play " .. card,
    help = "reveal " .. NAMES[card] .. " (1 victory point; any number per turn, even just bought)",
    when = function(g, p)
      return p == g:current() and g:count(p, "dev", card) + g:count(p, "dev_new", card) > 0
    end,
    not_now = "you may reveal " .. NAMES[card] .. " in your turn, if you hold it",
    apply = function(g, p)
      g:move(p, g:count(p, "dev", card) > 0 and "dev" or "dev_new", p, "played", card, 1)
      g:log(g:color(p) .. " reveals " .. NAMES[card] .. ": 1 victory point")
      g:emit("played_development", { seat = p, card = card })
    end,
  }
end

-- The cards' texts (Development Cards; Special Actions 2 and 3): this deck's, in place of
-- base's Knight and Victory Point cards, which are not in it.
local PLAY_RULE = "\nYou may play 1 development card at any time during your turn (even before your "
  .. "production roll), never one bought in the same turn; victory point cards are the exception."
local CARD_TEXT = {
  soldier = "Soldier (development card, 14): when you play it, you must move the robber to a numbered "
    .. "terrain hex of your choice (not the desert) and take 1 resource card at random from a player "
    .. "with a settlement or city next to it. Played Soldiers stay face up; the first player with 3 "
    .. "takes Largest Army (2 victory points), and a player who plays more takes it away." .. PLAY_RULE,
}
for _, card in ipairs(VICTORY) do
  local title = NAMES[card]:gsub("^the ", "")
  CARD_TEXT[card] = title .. " (victory point card, 1 of 5): 1 victory point. Reveal it in your turn "
    .. "with `play " .. card .. "`, even the turn you buy it, as many as you like; kept hidden, it "
    .. "still counts once you reach the points to win."
end
filter("card_text", "classic.development_cards", function(g, text, kind)
  if kind == "knight" or kind == "victory_point" then return nil end
  return CARD_TEXT[kind] or text
end)

-- Revealed cards count for everyone to see; hidden ones for their owner and at the end.
wrap_hook("base.points", function(original)
  return function(g, v, p, hidden)
    v = original(g, v, p, hidden) + g:count_category(p, "played", "victory")
    if hidden or g:winner() then
      v = v + g:count_category(p, "dev", "victory") + g:count_category(p, "dev_new", "victory")
    end
    return v
  end
end)

wrap_hook("base.describe", function(original)
  return function(g, info, p)
    info = original(g, info, p)
    info.knights = nil
    info.soldiers = g:count(p, "played", "soldier")
    info.army, info.army_name = info.soldiers, "soldiers"
    return info
  end
end)
