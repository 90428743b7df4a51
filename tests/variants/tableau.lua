-- tests/slots.rs: slot grids without Rivals — a game grid shared by all, a small grid per
-- player, and actions that exercise every g: method of slot grids.
variant {
  description = "a card tableau for testing slot grids",
  players = { min = 2, max = 3, default = 3 },
  colors = { "red", "blue", "white" },
  cards = { tile = { "star", "moon", "sun" } },
  zones = {
    { name = "pile", owner = "game", stack = true, visibility = "hidden" },
    { name = "hand", owner = "player", visibility = "owner" },
  },
  grids = {
    { name = "yard", owner = "player", rows = 2, cols = 3 },
    { name = "market", owner = "game", rows = 1, cols = 4 },
  },
}

sequence("setup", "tableau.setup", function(g)
  g:create(nil, "pile", "star", 3)
  g:create(nil, "pile", "moon", 2)
  g:create_card(nil, "market", 1, 1, "sun")
  g:set_store(nil, "market", 1, 1, 5)
  g:set_phase("play")
end)

-- put <word> <slot>: from the pile onto a slot (yours or the market).
action {
  name = "put",
  syntax = "put <word> <slot>",
  phases = { "play" },
  legal = function(g, p, kind, lbl)
    local owner, grid = g:slot_at(lbl)
    if grid == "yard" and owner ~= p then return deny("not your yard") end
    return true
  end,
  apply = function(g, p, kind, lbl)
    local owner, grid, r, c = g:slot_at(lbl)
    g:place_card(nil, "pile", owner, grid, r, c, kind)
    g:set_store(owner, grid, r, c, g:store(owner, grid, r, c) + 1)
  end,
}

-- lift <slot>: the top card goes under the pile.
action {
  name = "lift",
  syntax = "lift <slot>",
  phases = { "play" },
  apply = function(g, p, lbl)
    local owner, grid, r, c = g:slot_at(lbl)
    g:take_card(owner, grid, r, c, nil, "pile", true)
  end,
}

action {
  name = "swap",
  syntax = "swap <slot> <slot>",
  phases = { "play" },
  apply = function(g, p, a, b)
    local o, grid, r1, c1 = g:slot_at(a)
    local _, _, r2, c2 = g:slot_at(b)
    g:swap_slots(o, grid, r1, c1, r2, c2)
  end,
}

-- report: writes what the read methods answer into game variables.
action {
  name = "report",
  syntax = "report",
  phases = { "play" },
  apply = function(g, p)
    local rows, cols = g:grid_size(p, "yard")
    local card, n = g:slot(nil, "market", 1, 1)
    local around = {}
    for _, s in ipairs(g:slot_neighbors(p, "yard", 1, 2, "all")) do around[#around + 1] = s.label end
    local slots = {}
    for _, s in ipairs(g:slots(p, "yard")) do slots[#slots + 1] = s.label .. "=" .. (s.card or "-") .. "/" .. s.store end
    g:set("report", {
      size = rows .. "x" .. cols, market = card .. "/" .. n, around = table.concat(around, " "),
      slots = table.concat(slots, " "), stars = g:grid_count(p, "yard", "star"),
      found = #g:grid_find(p, "yard"), label = g:slot_label(p, "yard", 2, 3),
      pile = table.concat(g:cards(nil, "pile"), " "),
      missing = g:slot_at("Z99") == nil,
    })
  end,
}

action {
  name = "misuse",
  syntax = "misuse <word>",
  phases = { "play" },
  apply = function(g, p, how)
    if how == "owner" then g:slot(nil, "yard", 1, 1) end
    if how == "bounds" then g:slot(p, "yard", 3, 1) end
    if how == "grid" then g:slot(p, "garden", 1, 1) end
    if how == "empty" then g:take_card(p, "yard", 1, 1, nil, "pile") end
    if how == "zone" then g:place_card(p, "hand", p, "yard", 1, 1, "sun") end
  end,
}
