-- CATAN: the 5-6 player game: the Special Building Phase, or paired turns.
-- Rulebook: 5-6 Player Rules, The Special Building Phase (003); CATAN 5-6 Player Expansion,
-- Rules for 5-6 Players (001).
-- A part of ../base.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local PIECES_56, next, has, cost = shared.PIECES_56, shared.next, shared.has, shared.cost
local opt, name, settlement_sites = shared.opt, shared.name, shared.settlement_sites
local road_spots, next_turn = shared.road_spots, shared.next_turn

-- The 5-6 player game ---------------------------------------------------------------------
--
-- With 5 or 6 players base plays the 5-6 player game: the larger board and supply (HEXES_56
-- and the rest in components.lua, used by build_board and base.supply in setup.lua), two more
-- colours, and one of two turn structures, both real editions, chosen by option turn_structure:
--
--  * special_building: the 25th Anniversary 5-6 Player Rules (../shared/rules/003). After
--    each turn, every other player in clockwise order has a Special Building Phase: they may
--    build and buy development cards with the cards in hand, but not trade (with players or
--    the bank) nor play a development card.
--  * paired: the CATAN 5-6 Player Expansion, the newest rules (../shared/rules/001). Player 1
--    takes a whole turn; then player 2, the third player to player 1's left, takes an action
--    phase (no roll) in which they may not trade with other players, and wins at once with 10
--    points; then both markers pass to the left.
--
-- The hooks below are named base.*_56; the phase of a Special Building Phase is
-- "special_building", with the builder as g:current() and var special_building = the seat
-- whose turn it follows; during player 2's action phase var paired = { first, second }.

local function big_game(g) return g:players() >= 5 end
local function paired(g) return big_game(g) and opt(g, "turn_structure") == "paired" end

-- The seat of player 2 when `first` holds the player 1 marker: the third player to the left.
local function player_2_of(g, first) return (first + 2) % g:players() + 1 end

-- Special Building Phase (003: 5-6 Player Rules, The Special Building Phase) ---------------

-- Could `p` build or buy anything now from the cards in hand? Players who cannot are not
-- asked, and a builder who has nothing more to build is done.
local function can_special_build(g, p)
  if has(g, p, cost(g, "road", p)) and #road_spots(g, p) > 0 then return true end
  if g:supply(p, "settlement") > 0 and has(g, p, cost(g, "settlement", p)) and #settlement_sites(g, p) > 0 then
    return true
  end
  if g:supply(p, "city") > 0 and has(g, p, cost(g, "city", p)) and g:piece_count(p, "settlement") > 0 then
    return true
  end
  return not g:empty(nil, "deck") and has(g, p, cost(g, "development", p))
end

-- The next builder clockwise after seat `after` who can build, up to the player `from` whose
-- turn it follows; when nobody is left, the dice pass to `from`'s left.
local function special_building(g, from, after)
  local n = g:players()
  local q = after % n + 1
  while q ~= from do
    if can_special_build(g, q) then
      g:set("special_building", from)
      g:set_current(q)
      g:set_phase("special_building")
      g:log(name(g, q) .. ": special building phase")
      return
    end
    q = q % n + 1
  end
  g:set("special_building", nil)
  next_turn(g, from, from % n + 1)
end

-- A builder's Special Building Phase is over.
local function end_special_building(g, p)
  -- Cards bought now were not bought in the builder's own turn: they may be played in it.
  for card, n in next, g:cards(p, "dev_new") do g:move(p, "dev_new", p, "dev", card, n) end
  special_building(g, g:get("special_building"), p)
end

action {
  name = "pass",
  phases = { "special_building" },
  syntax = "pass",
  help = "end your Special Building Phase (5-6 players)",
  -- Only in the 5-6 player game with the Special Building Phase.
  available = function(g) return g:players() >= 5 and g:option("turn_structure") == "special_building" end,
  turn = true,
  apply = function(g, p) end_special_building(g, p) end,
}

-- A builder who can build nothing more is done without a `pass`. Runs before base.victory,
-- so a player whose turn begins with 10 points wins at once.
sequence("after_action", "base.special_building_56", function(g, seat, action)
  if g:phase() == "special_building" and not g:winner() and not can_special_build(g, g:current()) then
    end_special_building(g, g:current())
  end
end, { priority = -1 })

-- Paired turns (001: Rules for 5-6 Players) -------------------------------------------------

-- Seats holding the player 1 and player 2 markers, or nil when turns are not paired.
local function markers(g)
  if not paired(g) then return nil end
  local pair = g:get("paired")
  if pair then return pair.first, pair.second end
  local first = g:phase() == "setup" and g:get("starting_player") or g:current()
  return first, player_2_of(g, first)
end

local function between_turns(g, p)
  if not big_game(g) then return false end
  if not paired(g) then
    special_building(g, p, p)
    return true
  end
  local pair = g:get("paired")
  if pair then
    -- Player 2's action phase is over: the dice and both markers pass to the left.
    g:set("paired", nil)
    next_turn(g, p, pair.first % g:players() + 1)
    return true
  end
  -- Player 1's turn is over: player 2's action phase (no roll, no production).
  local second = player_2_of(g, p)
  g:set("paired", { first = p, second = second })
  g:set_current(second)
  g:set_phase(opt(g, "combined_trade_build") and "main" or "trade")
  g:log("--- " .. name(g, second) .. " (player 2): action phase, no trade with other players ---")
  g:emit("turn_ended", { seat = p })
  g:run("turn_begin", second)
  return true
end
shared.set_between_turns(between_turns) -- end_of_turn.lua calls it

sequence("turn_begin", "base.paired_56", function(g, p)
  if paired(g) and not g:get("paired") then
    local first, second = markers(g)
    g:log("player 1: " .. name(g, first) .. ", player 2: " .. name(g, second))
  end
end)

filter("describe", "base.describe_56", function(g, info, p)
  local first, second = markers(g)
  if p == first then info.marker = "player 1" elseif p == second then info.marker = "player 2" end
  return info
end)

-- Set-up ------------------------------------------------------------------------------------

-- No printed 5-6 starting pieces: fixed pieces only on the stand-in map.
local function fixed_56(g) return opt(g, "board") == "stand_in" and opt(g, "starting_pieces") end

filter("starting_pieces", "base.starting_pieces_56", function(g, fixed)
  if not big_game(g) then return fixed end
  if fixed_56(g) then return PIECES_56 end
  return nil
end)

-- 5-6 Player Expansion, Fixed Setup (4): in a 5-player game the players draw the colours at
-- random and one colour is not used; its settlements stay on the board without roads. The
-- colour drawn out is left out of the seats (the others keep their order), before the
-- starting pieces are placed.
sequence("setup", "base.colors_56", function(g)
  if g:players() ~= 5 or not fixed_56(g) then return end
  local colors = { "red", "blue", "white", "orange", "green", "brown" }
  local out = table.remove(colors, g:random(#colors))
  for p, c in ipairs(colors) do g:set_color(p, c) end
  g:set("unused_color", out)
end, { priority = -1 })

-- Its settlements are pieces of no player: they produce nothing and block like any other
-- player's building. Placed on the built board, before the players' pieces.
wrap_hook("base.start", function(start)
  return function(g)
    local out = g:get("unused_color")
    if out then
      for _, s in ipairs(PIECES_56[out].settlements) do g:place(nil, "settlement", s) end
      g:log("nobody plays " .. out .. ": its settlements stay on the board, without roads")
    end
    start(g)
  end
end)
