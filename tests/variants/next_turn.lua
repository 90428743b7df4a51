-- tests/bots.rs: an end of turn is followed into the next turn up to its first draw (the
-- next seat's roll), so the planner weighs what the roll brings every seat and not the
-- next seat's choices after it, the same in its first look and in its follow-ups.
variant {
  description = "a roll that pays every seat, a tithe that makes it pay more, a raid after it",
  players = { min = 2, max = 2, default = 2 },
  colors = { "red", "blue" },
  cards = { coin = { "gold" } },
  zones = {
    { name = "bank", owner = "game", visibility = "public" },
    { name = "purse", owner = "player", visibility = "public" },
    { name = "vault", owner = "player", visibility = "public" },
  },
}

sequence("setup", "next_turn.setup", function(g)
  g:create(nil, "bank", "gold", 100)
  -- Blue too poor for red to raid at once.
  g:move(nil, "bank", 1, "purse", "gold", 4)
  g:move(nil, "bank", 2, "purse", "gold", 2)
  g:set_phase("main")
end)

local function pass_turn(g, p)
  g:set_current(p % g:players() + 1)
  g:set_turn(g:turn() + 1)
  g:set_phase("roll")
end

-- The roll, drawn at random, pays every seat 1 gold, and 3 to a seat that tithed.
action {
  name = "roll",
  phases = { "roll" },
  turn = true,
  apply = function(g, p)
    g:random(6)
    for q = 1, g:players() do
      g:move(nil, "bank", q, "purse", "gold", g:get("tithe_" .. q) and 3 or 1)
      g:set("tithe_" .. q, false)
    end
    g:set_phase("main")
  end,
}

-- After its roll, a seat may take 3 gold from another's purse.
action {
  name = "raid",
  phases = { "main" },
  turn = true,
  when = function(g, p) return g:count(p % g:players() + 1, "purse", "gold") >= 3 end,
  apply = function(g, p) g:move(p % g:players() + 1, "purse", p, "purse", "gold", 3) end,
}

action { name = "end", phases = { "main" }, turn = true, apply = pass_turn }

-- 1 gold to the bank, and the next roll pays 3: worth it only to a look that sees the roll.
action {
  name = "tithe",
  phases = { "main" },
  turn = true,
  apply = function(g, p)
    g:move(p, "purse", nil, "bank", "gold", 1)
    g:set("tithe_" .. p, true)
    pass_turn(g, p)
  end,
}

-- 3 gold into the vault, out of a raid's reach but worth half: worth it only to a look
-- that sees the next seat's raid.
action {
  name = "hide",
  phases = { "main" },
  turn = true,
  apply = function(g, p)
    g:move(p, "purse", p, "vault", "gold", 3)
    pass_turn(g, p)
  end,
}

filter("evaluate", "next_turn.evaluate", function(g, v, p)
  return v + 0.1 * g:count(p, "purse", "gold") + 0.05 * g:count(p, "vault", "gold")
end)
