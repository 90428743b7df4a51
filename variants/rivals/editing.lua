-- Rivals for Catan: moves for setting up positions (option test_edits).
-- A part of ../rivals.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local P, STACKS, copy = shared.P, shared.STACKS, shared.copy

-- Editing positions (option test_edits) --------------------------------------------------------
-- Moves that no rule makes, for tests and teaching: each takes the card from where it is
-- (draw stacks, discard pile, event deck, centre stacks, a hand), so every card stays
-- accounted for. They are templates, never listed, so bots never use them.

local function editing(g) return g:option("test_edits") end

-- The game zones a card is looked for in, besides the draw stacks (a child adds its own).
local EDIT_ZONES = { "discard", "events", "revealed", "regions", "roads", "settlements", "cities" }
rivals.edit_zones = EDIT_ZONES

local function find_card(g, kind)
  local zones = copy(STACKS)
  for _, z in ipairs(EDIT_ZONES) do zones[#zones + 1] = z end
  for _, z in ipairs(zones) do
    if g:count(nil, z, kind) > 0 then return nil, z end
  end
  for p = 1, 2 do
    if g:count(p, "hand", kind) > 0 then return p, "hand" end
  end
end

action {
  name = "edit_hand",
  syntax = "edit hand <player> <word>",
  debug = true,
  help = "(test_edits) move a card into a player's hand",
  when = editing,
  legal = function(g, p, who, kind)
    local _, z = find_card(g, kind)
    if not z then return deny("there is no free " .. kind .. " card") end
    return true
  end,
  apply = function(g, p, who, kind)
    local o, z = find_card(g, kind)
    g:move(o, z, who, "hand", kind)
  end,
}

action {
  name = "edit_drop",
  syntax = "edit drop <player> <word>",
  debug = true,
  help = "(test_edits) move a card of a player's hand to the discard pile",
  when = editing,
  apply = function(g, p, who, kind) g:move(who, "hand", nil, "discard", kind) end,
}

action {
  name = "edit_place",
  syntax = "edit place <slot> <word>",
  debug = true,
  help = "(test_edits) put a card on a position of a principality",
  when = editing,
  legal = function(g, p, lbl, kind)
    local _, z = find_card(g, kind)
    if not z then return deny("there is no free " .. kind .. " card") end
    return true
  end,
  apply = function(g, p, lbl, kind)
    local owner, _, r, c = g:slot_at(lbl)
    local o, z = find_card(g, kind)
    g:place_card(o, z, owner, P, r, c, kind)
  end,
}

action {
  name = "edit_clear",
  syntax = "edit clear <slot>",
  debug = true,
  help = "(test_edits) move the top card of a position to the discard pile",
  when = editing,
  apply = function(g, p, lbl)
    local owner, _, r, c = g:slot_at(lbl)
    g:take_card(owner, P, r, c, nil, "discard")
  end,
}

action {
  name = "edit_store",
  syntax = "edit store <slot> <int>",
  debug = true,
  help = "(test_edits) set what a position stores",
  when = editing,
  apply = function(g, p, lbl, n)
    local owner, _, r, c = g:slot_at(lbl)
    g:set_store(owner, P, r, c, n)
  end,
}

action {
  name = "edit_event",
  syntax = "edit event <word>",
  debug = true,
  help = "(test_edits) put an event card on top of the event deck",
  when = editing,
  apply = function(g, p, kind) g:move(nil, "events", nil, "events", kind) end,
}

action {
  name = "edit_top",
  syntax = "edit top <int> <word>",
  debug = true,
  help = "(test_edits) put a card on top of a draw stack",
  when = editing,
  apply = function(g, p, n, kind)
    local o, z = find_card(g, kind)
    g:move(o, z, nil, STACKS[n], kind)
  end,
}
