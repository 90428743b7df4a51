-- CATAN: ending the turn and passing the dice.
-- Rulebook: Turn Overview; Almanac: Game Play.
-- A part of ../base.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local next = shared.next
local why_not_turn = shared.why_not_turn

-- End of turn ------------------------------------------------------------------------------

-- `p` ended the turn; the dice pass to `nxt`, whose turn begins with the roll.
local function next_turn(g, p, nxt)
  local turn = g:turn() + 1
  g:set_current(nxt)
  g:set_turn(turn)
  g:set_phase("roll")
  -- Players count rounds (each player's turn once), the engine counts turns.
  g:log("--- round %d: %s ---", (turn - 1) // g:players() + 1, g:color(nxt))
  g:emit("turn_ended", { seat = p })
  g:run("turn_begin", nxt)
end

-- With 5-6 players, what comes between two turns (defined in 5_6_players.lua, a later part);
-- returns true when it took over from next_turn.
local between_turns

action {
  name = "end",
  phases = { "main", "trade", "build" },
  syntax = "end",
  help = "end your turn and pass the dice to the left",
  why_not = why_not_turn,
  turn = true,
  apply = function(g, p)
    g:run("turn_end", p)
    -- Cards bought this turn become playable from the next turn on.
    if g:count(p, "dev_new") > 0 then
      for card, n in next, g:cards(p, "dev_new") do g:move(p, "dev_new", p, "dev", card, n) end
    end
    g:set("played_dev", false)
    g:set("last_roll", nil)
    if not between_turns(g, p) then next_turn(g, p, p % g:players() + 1) end
  end,
}

-- For the parts after this one.
shared.next_turn = next_turn
-- between_turns is defined by 5_6_players.lua, a later part, through this.
shared.set_between_turns = function(f) between_turns = f end
