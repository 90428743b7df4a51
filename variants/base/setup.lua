-- CATAN: setting up the board and the supply, the starting pieces or the set-up rounds,
-- the first turn; and who acts in each phase.
-- Rulebook: Constructing the Island; Starting Set-up for Beginners; Setting Up the Game;
-- Almanac: Set-up Phase (Round One, Round Two), Set-up, Variable.
-- A part of ../base.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local RESOURCES, BEGINNER_HEXES = shared.RESOURCES, shared.BEGINNER_HEXES
local BEGINNER_HARBORS, BEGINNER_PIECES = shared.BEGINNER_HARBORS, shared.BEGINNER_PIECES
local TOKENS, DEVELOPMENT_DECK, HEXES_56 = shared.TOKENS, shared.DEVELOPMENT_DECK, shared.HEXES_56
local HARBORS_56, TOKENS_56 = shared.HARBORS_56, shared.TOKENS_56
local RESOURCE_CARDS_56, DEVELOPMENT_DECK_56 = shared.RESOURCE_CARDS_56, shared.DEVELOPMENT_DECK_56
local copy, cards_text, opt, name = shared.copy, shared.cards_text, shared.opt, shared.name
local other_seats = shared.other_seats

-- Board set-up -------------------------------------------------------------------------

local function layout_hexes(g, hexes)
  local list = {}
  for i, h in ipairs(hexes) do list[i] = { q = h.q, r = h.r, terrain = h.terrain, number = h.number } end
  return list
end

-- Whether a red number (6 or 8) lies next to another: `numbers[i]` is the token of land
-- hex i, `near[i]` the land hexes next to it (indices into the same list).
local function red_adjacent(numbers, near)
  for i = 1, #near do
    local n = numbers[i]
    if n == 6 or n == 8 then
      local list = near[i]
      for j = 1, #list do
        local k = numbers[list[j]]
        if k == 6 or k == 8 then return true end
      end
    end
  end
  return false
end

local function build_board(g)
  local kind = opt(g, "board")
  local frame, frame_harbors, tokens = BEGINNER_HEXES, BEGINNER_HARBORS, TOKENS
  if g:players() >= 5 then
    -- The 5-6 player frame and tokens A-Zc. Its printed beginner map is not in our sources:
    -- beginner means the variable set-up; stand_in is our fixed map.
    frame, frame_harbors, tokens = HEXES_56, HARBORS_56, TOKENS_56
    if kind == "beginner" then kind = "variable" end
  elseif kind == "stand_in" then
    error("board=stand_in is the 5-6 player stand-in map; with 3-4 players use board=beginner")
  end
  local hexes = layout_hexes(g, frame)
  local harbors = {}
  for i, h in ipairs(frame_harbors) do harbors[i] = copy(h) end
  if kind ~= "beginner" and kind ~= "stand_in" then
    -- Set-up, Variable (1) and (2): terrain and harbor pieces shuffled onto the frame.
    local terrains = {}
    for i, h in ipairs(hexes) do terrains[i] = h.terrain end
    terrains = g:shuffled(terrains)
    for i, h in ipairs(hexes) do h.terrain = terrains[i]; h.number = nil end
    local kinds = {}
    for i, h in ipairs(harbors) do kinds[i] = { resource = h.resource, ratio = h.ratio } end
    kinds = g:shuffled(kinds)
    for i, h in ipairs(harbors) do h.resource = kinds[i].resource; h.ratio = kinds[i].ratio end
  end
  g:build_board({ hexes = hexes, harbors = harbors })
  if kind == "variable" then
    -- (3) Tokens A-R (A-Zc with 5-6 players) counter-clockwise in a spiral from a corner,
    -- skipping the desert(s).
    local corners = {}
    for h = 1, g:hex_count() do
      if #g:hex_neighbors(h) == 3 then corners[#corners + 1] = h end
    end
    local start = corners[g:random(#corners)]
    local t = 1
    for _, h in ipairs(g:spiral(start)) do
      local terrain = g:hex(h)
      if terrain ~= "desert" then
        g:set_hex(h, terrain, tokens[t])
        t = t + 1
      end
    end
  elseif kind == "random" then
    -- Fully random tokens: the red numbers 6 and 8 may not be adjacent; reshuffle until so.
    -- Each shuffle is checked as a list; only the one kept is laid on the board.
    local land, index = {}, {}
    for h = 1, g:hex_count() do
      if g:hex(h) ~= "desert" then land[#land + 1] = h; index[h] = #land end
    end
    local near = {}
    for i, h in ipairs(land) do
      local list = {}
      for _, m in ipairs(g:hex_neighbors(h)) do
        if index[m] then list[#list + 1] = index[m] end
      end
      near[i] = list
    end
    local shuffled
    repeat shuffled = g:shuffled(tokens) until not red_adjacent(shuffled, near)
    for i, h in ipairs(land) do g:set_hex(h, (g:hex(h)), shuffled[i]) end
  end
  for h = 1, g:hex_count() do
    if g:hex(h) == "desert" then g:set_marker("robber", h) break end
  end
end

local function starting_resources(g, p, node)
  -- Set-up Phase, Round Two: one card per terrain hex next to the second settlement.
  local got = {}
  for _, h in ipairs(g:hexes_at(node)) do
    local r = g:hex_resource(h)
    if r and g:count(nil, "bank", r) > 0 then
      g:move(nil, "bank", p, "hand", r, 1)
      got[r] = (got[r] or 0) + 1
    end
  end
  g:log(name(g, p) .. " takes starting resources: " .. cards_text(got))
end

local function begin_turns(g, first)
  g:set_current(first)
  g:set_turn(1)
  g:set_phase("roll")
  g:set("played_dev", false)
  g:log("--- round 1: " .. name(g, first) .. " ---")
  g:run("turn_begin", first)
end

sequence("setup", "base.colors", function(g)
  if g:players() == 3 then
    -- Setting Up: with 3 players one colour sits out (red in the rulebook).
    local out, p = opt(g, "three_player_out"), 0
    for _, c in ipairs({ "red", "blue", "white", "orange" }) do
      if c ~= out then p = p + 1; g:set_color(p, c) end
    end
  end
end)

sequence("setup", "base.supply", function(g)
  local big = g:players() >= 5 -- the 5-6 player game adds its cards
  for _, r in ipairs(RESOURCES) do g:create(nil, "bank", r, big and RESOURCE_CARDS_56 or 19) end
  -- Filter point "development_deck": how many of each card the deck holds. A variant adds
  -- a new card (or changes the mix) with a filter; base's cards go in first, in this order,
  -- then the others by name, so the shuffle is the same for the same seed.
  local deck = g:filter("development_deck", copy(big and DEVELOPMENT_DECK_56 or DEVELOPMENT_DECK))
  local order = { "knight", "victory_point", "road_building", "year_of_plenty", "monopoly" }
  for card in pairs(deck) do
    if DEVELOPMENT_DECK[card] == nil then order[#order + 1] = card end
  end
  for _, card in ipairs(order) do
    if (deck[card] or 0) > 0 then g:create(nil, "deck", card, deck[card]) end
  end
  g:shuffle(nil, "deck")
end)

sequence("setup", "base.board", function(g) build_board(g) end)

-- The seat the first_player option names, or nil (0: as the rules say).
local function chosen_first(g)
  local first = opt(g, "first_player")
  if first == 0 then return nil end
  if first > g:players() then
    error("option first_player is " .. first .. ", but this game has " .. g:players() .. " players")
  end
  return first
end

-- Many players expect to place their own first settlements: say how.
filter("welcome", "base.welcome", function(g, text)
  local fixed = opt(g, "board") == "beginner" and opt(g, "starting_pieces") and BEGINNER_PIECES or nil
  if g:turn() > 1 or g:phase() == "setup" or not g:filter("starting_pieces", fixed) then return text end
  return (text and (text .. "\n") or "") .. "this game starts from fixed starting pieces (the rulebook's first-game "
    .. "set-up); to place your own in the two set-up rounds, start it with `--option starting_pieces=false`"
    .. " (and `--option board=variable` for a new map)"
end)

sequence("setup", "base.start", function(g)
  local n = g:players()
  -- Fixed starting pieces by colour ({ red = { settlements = { 37, 26 }, roads = { "31-37", ... } } },
  -- the second settlement paying the starting resources), or nil for the set-up rounds. A
  -- variant with its own board supplies its own through the "starting_pieces" filter.
  local fixed
  if opt(g, "board") == "beginner" and opt(g, "starting_pieces") then fixed = BEGINNER_PIECES end
  fixed = g:filter("starting_pieces", fixed)
  if fixed then
    -- Starting Set-up for Beginners: fixed pieces; the oldest player (first seat) starts.
    for p = 1, n do
      local pieces = fixed[g:color(p)] or error("no starting pieces for " .. g:color(p))
      for _, s in ipairs(pieces.settlements) do g:place(p, "settlement", s) end
      for _, label in ipairs(pieces.roads) do
        local a, b = label:match("(%d+)-(%d+)")
        a, b = tonumber(a), tonumber(b)
        local placed = false
        for _, path in ipairs(g:paths_at(a)) do
          local x, y = g:ends(path)
          if (x == a and y == b) or (y == a and x == b) then
            g:place(p, "road", path)
            placed = true
          end
        end
        if not placed then error("beginner road " .. label .. " is not a path of the board") end
      end
      starting_resources(g, p, pieces.settlements[2])
    end
    begin_turns(g, chosen_first(g) or 1)
    return
  end
  -- Set-up Phase, Round One: everyone rolls; the highest roll starts (ties roll again).
  local contenders = {}
  for p = 1, n do contenders[p] = p end
  local first = chosen_first(g)
  while not first do
    local best, top = -1, {}
    for _, p in ipairs(contenders) do
      local d = g:roll(2)
      local s = d[1] + d[2]
      g:log(name(g, p) .. " rolls " .. s .. " for the start")
      if s > best then best, top = s, { p } elseif s == best then top[#top + 1] = p end
    end
    if #top == 1 then first = top[1] else contenders = top end
  end
  g:log(name(g, first) .. " is the starting player")
  -- Round one clockwise from the starting player, round two counter-clockwise back.
  local order = {}
  for i = 0, n - 1 do order[#order + 1] = (first - 1 + i) % n + 1 end
  for i = n, 1, -1 do order[#order + 1] = order[i] end
  g:set("setup_order", order)
  g:set("setup_index", 1)
  g:set("setup_step", "settlement")
  g:set("starting_player", first)
  g:set_phase("setup")
  g:set_current(first)
end)

-- Who acts ------------------------------------------------------------------------------

filter("to_act", "base.to_act", function(g, seat)
  local ph = g:phase()
  if ph == "setup" then
    return g:get("setup_order", g:get("setup_index"))
  elseif ph == "discard" then
    -- Everyone discards at once; we ask them clockwise from the roller.
    local owed = g:get("discards") or {}
    local n = g:players()
    for i = 0, n - 1 do
      local p = (g:current() - 1 + i) % n + 1
      if (owed[p] or 0) > 0 then return p end
    end
  elseif ph == "offer" then
    local responses = g:get("offer", "responses")
    for _, p in ipairs(other_seats(g, g:get("offer", "from"))) do
      if not responses[p] then return p end
    end
  end
  return seat
end)

-- For the parts after this one.
shared.starting_resources, shared.begin_turns = starting_resources, begin_turns
