-- CATAN: playing development cards: knights, Road Building, Year of Plenty, Monopoly.
-- Rulebook: Special Cases, b) Playing Development Cards; Almanac: Development Cards, Knight
-- Cards, Progress Cards, Victory Point Cards.
-- A part of ../base.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local RESOURCES, cards_text, name = shared.RESOURCES, shared.cards_text, shared.name
local other_seats, in_turn, IN_TURN = shared.other_seats, shared.in_turn, shared.IN_TURN
local update_largest_army, WAIT_FOR = shared.update_largest_army, shared.WAIT_FOR
local why_not_turn, road_spots = shared.why_not_turn, shared.road_spots
local robber_phase = shared.robber_phase

-- Development cards ----------------------------------------------------------------------

local PLAY_PHASES = { "roll", "main", "trade", "build" }

-- Playing Development Cards: one per turn, any time during your turn (even before the
-- roll), never one bought this turn (those wait in "dev_new"). The actions below declare
-- it (`turn`, `holds`, `when = one_per_turn`); `may_play` asks it all, for other rules.
local function one_per_turn(g) return not g:get("played_dev") end
local function may_play(g, p, card)
  -- Holding the card is asked first: it is what most often says no.
  if g:count(p, "dev", card) == 0 or p ~= g:current() or g:get("played_dev") then return false end
  local ph = g:phase()
  return ph == "roll" or IN_TURN[ph] or false
end

-- `help knight` and the like: the development cards in the rulebook's words (Almanac:
-- Development Cards, Knight Cards, Progress Cards, Victory Point Cards).
local DEV_TEXT = {
  knight = "Knight (development card, 14): when you play it, you must immediately move the robber and "
    .. "steal 1 resource card from an owner of a settlement or city next to its new hex. Played knights "
    .. "stay face up in front of you; the first player with 3 takes Largest Army (2 victory points), "
    .. "and whoever has more afterwards takes it over.",
  road_building = "Road Building (progress card, 2): place 2 free roads on the board, by the normal building rules.",
  year_of_plenty = "Year of Plenty (progress card, 2): take any 2 resource cards from the bank; you may "
    .. "use them to build in the same turn.",
  monopoly = "Monopoly (progress card, 2): name 1 type of resource; all the other players must give you "
    .. "all of their resource cards of that type.",
  victory_point = "Victory Point (development card, 5): 1 victory point, kept hidden until you reach the "
    .. "points to win in your turn (or the game ends).",
}
local PLAY_RULE = "\nYou may play 1 development card in your turn (any time, even before the roll), "
  .. "never one bought in the same turn."
filter("card_text", "base.development_cards", function(g, text, kind)
  if text or not DEV_TEXT[kind] then return text end
  return DEV_TEXT[kind] .. (kind == "victory_point" and "" or PLAY_RULE)
end)

-- Why `play CARD` is refused (Almanac: Development Cards): asked only on a refusal.
local function why_not_play(card)
  local title = card:gsub("_", " ")
  return function(g, p)
    if p ~= g:current() then return "you may play a development card only in your own turn" end
    if g:get("played_dev") then return "you have already played a development card this turn (one per turn)" end
    local ph = g:phase()
    if ph ~= "roll" and not in_turn(g) then return WAIT_FOR[ph] or why_not_turn(g, p) end
    if g:count(p, "dev", card) == 0 then
      if g:count(p, "dev_new", card) > 0 then
        return "a development card cannot be played in the turn you bought it"
      end
      return "you have no " .. title .. " card"
    end
  end
end

-- Plays `card` from p's hand of development cards: the one card of the turn; knights (and
-- any card with `face_up`) stay face up in p's "played" zone, the others go to the box.
local function use_card(g, p, card, face_up)
  g:set("played_dev", true)
  if card == "knight" or face_up then
    g:move(p, "dev", p, "played", card, 1)
  else
    g:move(p, "dev", nil, "box", card, 1)
  end
  g:emit("played_development", { seat = p, card = card })
end

-- For a new development card: `phases = catan.PLAY_PHASES`, `turn = true`,
-- `holds = { "dev", "x" }`, `when = catan.one_per_turn` (or `when = function(g, p) return
-- catan.may_play(g, p, "x") end`), and `catan.use_card(g, p, "x")` first thing in `apply`.
catan.may_play, catan.use_card, catan.PLAY_PHASES = may_play, use_card, PLAY_PHASES
catan.one_per_turn = one_per_turn
-- An edition with another army card (classic's Soldiers) counts it with
-- `catan.update_largest_army(g, p, "soldier", "soldiers")`.
catan.update_largest_army = update_largest_army

action {
  name = "play_knight",
  phases = PLAY_PHASES,
  syntax = "play knight",
  help = "play a knight: move the robber and steal",
  turn = true,
  holds = { "dev", "knight" },
  when = one_per_turn,
  why_not = why_not_play("knight"),
  apply = function(g, p)
    use_card(g, p, "knight")
    g:log(name(g, p) .. " plays a knight")
    update_largest_army(g, p, "knight", "knights")
    robber_phase(g, g:phase())
  end,
}

-- Free roads (sequence point "free_roads", (seat, n)): up to n roads placed at no cost in
-- phase road_building, then back to the phase it interrupted. Road Building runs it; any
-- variant may grant free roads with g:run("free_roads", seat, n).
sequence("free_roads", "base.free_roads", function(g, p, n)
  if #road_spots(g, p) > 0 then
    g:set("return_phase", g:phase())
    g:set("free_roads", math.min(n, g:supply(p, "road")))
    g:set_phase("road_building")
  end
end)

action {
  name = "play_road_building",
  phases = PLAY_PHASES,
  syntax = "play road_building",
  help = "play Road Building: place 2 free roads",
  turn = true,
  holds = { "dev", "road_building" },
  when = one_per_turn,
  why_not = why_not_play("road_building"),
  apply = function(g, p)
    use_card(g, p, "road_building")
    g:log(name(g, p) .. " plays Road Building")
    g:run("free_roads", p, 2)
  end,
}

action {
  name = "done",
  phases = { "road_building" },
  syntax = "done",
  help = "stop placing free roads",
  turn = true,
  apply = function(g, p)
    g:set("free_roads", nil)
    g:set_phase(g:get("return_phase"))
    g:set("return_phase", nil)
  end,
}

action {
  name = "play_year_of_plenty",
  phases = PLAY_PHASES,
  syntax = "play year_of_plenty <resource> <resource>",
  help = "play Year of Plenty: take any 2 resource cards from the bank",
  turn = true,
  holds = { "dev", "year_of_plenty" },
  when = one_per_turn,
  why_not = why_not_play("year_of_plenty"),
  options = function(g, p)
    local out = {}
    for i, a in ipairs(RESOURCES) do
      for j = i, #RESOURCES do
        local b = RESOURCES[j]
        local need = (a == b) and 2 or 1
        if g:count(nil, "bank", a) >= need and g:count(nil, "bank", b) >= need then out[#out + 1] = { a, b } end
      end
    end
    return out
  end,
  legal = function(g, p, a, b)
    if a == b and g:count(nil, "bank", a) < 2 or g:count(nil, "bank", a) < 1 or g:count(nil, "bank", b) < 1 then
      return deny("the bank does not have those cards")
    end
    return true
  end,
  apply = function(g, p, a, b)
    use_card(g, p, "year_of_plenty")
    g:move(nil, "bank", p, "hand", a, 1)
    g:move(nil, "bank", p, "hand", b, 1)
    g:log(name(g, p) .. " plays Year of Plenty and takes " .. cards_text({ [a] = 1, [b] = (a == b) and 2 or 1 }))
  end,
}

action {
  name = "play_monopoly",
  phases = PLAY_PHASES,
  syntax = "play monopoly <resource>",
  help = "play Monopoly: every other player gives you all their cards of one resource",
  turn = true,
  holds = { "dev", "monopoly" },
  when = one_per_turn,
  why_not = why_not_play("monopoly"),
  options = function(g, p) return RESOURCES end,
  apply = function(g, p, r)
    use_card(g, p, "monopoly")
    -- Every other player hands over all of theirs: the log says who gave how many.
    local got, from = 0, {}
    for _, q in ipairs(other_seats(g, p)) do
      local n = g:count(q, "hand", r)
      if n > 0 then
        g:move(q, "hand", p, "hand", r, n)
        got = got + n
      end
      from[#from + 1] = name(g, q) .. " " .. n
    end
    g:log(name(g, p) .. " plays Monopoly on " .. r .. " and takes " .. got .. " (" .. table.concat(from, ", ") .. ")")
  end,
}
