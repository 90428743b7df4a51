-- tests/victory_and_production.rs: sequence hooks declared `when_changed` and values kept
-- by g:cached's "recorded" are run again only once something they read has changed.
variant {
  description = "stored values, for testing what the engine keeps",
  players = { min = 2, max = 2, default = 2 },
  colors = { "red", "blue" },
  cards = { stone = { "stone" } },
  zones = {
    { name = "pile", owner = "game", visibility = "public" },
    { name = "spare", owner = "game", visibility = "public" },
  },
}

sequence("setup", "kept.setup", function(g) g:set_phase("play") end)

-- Copies "watched" to "mirror" when they differ: writes only after "watched" changed.
sequence("after_action", "kept.mirror", function(g, ...)
  if select("#", ...) > 0 then error("a when_changed hook is called without the point's arguments") end
  local w = g:get("watched")
  if g:get("mirror") ~= w then g:set("mirror", w) end
end, { when_changed = true })

-- Logs every time: a run that logs is no run to keep.
sequence("after_action", "kept.chatty", function(g)
  if g:get("chatty") then g:log("still here") end
end, { when_changed = true })

local function doubled(g) return { twice = 2 * (g:get("watched") or 0) } end

-- watch <number>: sets what the hook reads.
action { name = "watch", syntax = "watch <number>", apply = function(g, p, n) g:set("watched", n) end }
-- other <number>: sets a value nothing kept reads.
action { name = "other", syntax = "other <number>", apply = function(g, p, n) g:set("other", n) end }
-- chat: the chatty hook logs from now on.
action { name = "chat", apply = function(g) g:set("chatty", true) end }
-- look: the doubled value, kept with "recorded", stored in "seen".
action {
  name = "look",
  apply = function(g)
    local a = g:cached(doubled, nil, "recorded")
    if g:cached(doubled, nil, "recorded") ~= a then error("two asks in a row gave two values") end
    g:set("seen", a.twice)
  end,
}

-- peek: open only in phase "play", as a value kept with "recorded" says, asked while legal
-- actions are listed (through the listing's view of the game).
local function playing(g) return g:phase() == "play" end
action { name = "peek", when = function(g) return g:cached(playing, nil, "recorded") end, apply = function() end }
-- pause, resume: leave phase "play" and come back.
action { name = "pause", apply = function(g) g:set_phase("paused") end }
action { name = "resume", apply = function(g) g:set_phase("play") end }

-- add <number>, take <number>: stones into the pile, and from it to the spare zone.
action { name = "add", syntax = "add <number>", apply = function(g, p, n) g:create(nil, "pile", "stone", n) end }
action { name = "take", syntax = "take <number>", apply = function(g, p, n) g:move(nil, "pile", nil, "spare", "stone", n) end }
-- gauge: whether the pile holds stones, kept with "recorded" (read with g:empty), and how
-- many (read with g:count), stored in "pile_open" and "pile_size".
local function pile_open(g) return g:empty(nil, "pile") and 0 or 1 end
local function pile_size(g) return g:count(nil, "pile") end
action {
  name = "gauge",
  apply = function(g)
    g:set("pile_open", g:cached(pile_open, nil, "recorded"))
    g:set("pile_size", g:cached(pile_size, nil, "recorded"))
  end,
}
