-- tests/planner.rs: actions finished in later steps of the same seat, in another phase (a
-- price paid coin by coin after the choice; a reward chosen after the action), so that the
-- planner is seen to weigh an action once finished, not halfway.
variant {
  description = "actions paid or rewarded in a second step",
  players = { min = 2, max = 2, default = 2 },
  colors = { "red", "blue" },
  cards = { coin = { "gold" } },
  zones = {
    { name = "bank", owner = "game", visibility = "public" },
    { name = "purse", owner = "player", visibility = "public" },
  },
}

sequence("setup", "halfway.setup", function(g)
  g:create(nil, "bank", "gold", 100)
  for p = 1, g:players() do g:move(nil, "bank", p, "purse", "gold", 4) end
  g:set_phase("main")
end)

-- A trinket is worth nothing and costs 3 gold, paid afterwards, one `pay` at a time.
action {
  name = "trinket",
  phases = { "main" },
  turn = true,
  when = function(g, p) return g:count(p, "purse", "gold") >= 3 end,
  apply = function(g, p)
    g:set("owed", 3)
    g:set_phase("pay")
  end,
}

action {
  name = "pay",
  phases = { "pay" },
  turn = true,
  apply = function(g, p)
    g:move(p, "purse", nil, "bank", "gold", 1)
    local owed = g:get("owed") - 1
    g:set("owed", owed)
    if owed == 0 then g:set_phase("main") end
  end,
}

-- Digging, once a game for each seat, brings 1 or 5 gold: the seat chooses afterwards.
action {
  name = "dig",
  phases = { "main" },
  turn = true,
  when = function(g, p) return not g:get("dug_" .. p) end,
  apply = function(g, p)
    g:set("dug_" .. p, true)
    g:set_phase("reward")
  end,
}

for _, n in ipairs({ 1, 5 }) do
  action {
    name = "take_" .. n,
    phases = { "reward" },
    turn = true,
    apply = function(g, p)
      g:move(nil, "bank", p, "purse", "gold", n)
      g:set_phase("main")
    end,
  }
end

action {
  name = "end",
  phases = { "main" },
  turn = true,
  apply = function(g, p)
    g:set_current(p % g:players() + 1)
    g:set_turn(g:turn() + 1)
  end,
}

-- Gold is all that counts.
filter("evaluate", "halfway.evaluate", function(g, v, p) return v + 0.1 * g:count(p, "purse", "gold") end)
