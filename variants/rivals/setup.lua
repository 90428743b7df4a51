-- Rivals for Catan: the set-up and who starts.
-- Rulebook: Other Preparations; The Game Begins.
-- A part of ../rivals.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local P, CENTER, STACKS = shared.P, shared.CENTER, shared.STACKS
local START_REGIONS, STACK_REGIONS, CARDS = shared.START_REGIONS, shared.STACK_REGIONS, shared.CARDS
local EXPANSION_TYPE, kept_card_text, name = shared.EXPANSION_TYPE, shared.kept_card_text, shared.name
local order_from = shared.order_from

-- Set-up ---------------------------------------------------------------------------------------

local function event_list()
  local out = {}
  for _, k in ipairs({ "feud", "fraternal_feuds", "invention", "trade_ships_race", "traveling_merchant",
    "year_of_plenty" }) do
    for _ = 1, CARDS[k].copies do out[#out + 1] = k end
  end
  return out
end

-- Prepare the event deck (Other Preparations 5 and "To Prepare a New Event Deck"): every
-- event card is gathered in `revealed`; Yule aside, the rest shuffled; 3 cards, then Yule,
-- then the rest on top.
local function build_event_deck(g)
  local events = g:cards(nil, "events")
  for _, k in ipairs(events) do g:move(nil, "events", nil, "revealed", k) end
  local rest = {}
  for k, n in pairs(g:cards(nil, "revealed")) do
    if k ~= "yule" then
      for _ = 1, n do rest[#rest + 1] = k end
    end
  end
  rest = g:shuffled(rest)
  for i = 1, math.min(3, #rest) do g:move(nil, "revealed", nil, "events", rest[i]) end
  if g:count(nil, "revealed", "yule") > 0 then g:move(nil, "revealed", nil, "events", "yule") end
  for i = 4, #rest do g:move(nil, "revealed", nil, "events", rest[i]) end
end

sequence("setup", "rivals.principalities", function(g)
  -- Your Principality: 6 regions around 2 settlements joined by a road; every region
  -- stores 1 resource, the gold field none.
  for p = 1, 2 do
    g:create_card(p, P, CENTER, 12, "settlement")
    g:create_card(p, P, CENTER, 13, "road")
    g:create_card(p, P, CENTER, 14, "settlement")
    for _, rg in ipairs(START_REGIONS[p]) do
      local kind = rg[1] .. "_" .. rg[2]
      g:create_card(p, P, rg[3], rg[4], kind)
      if rg[1] ~= "gold_field" then g:set_store(p, P, rg[3], rg[4], 1) end
    end
  end
end)

sequence("setup", "rivals.stacks", function(g)
  -- Other Preparations 1-3: the centre stacks, the shuffled region stack, 4 draw stacks of 9.
  g:create(nil, "roads", "road", 7)
  g:create(nil, "settlements", "settlement", 5)
  g:create(nil, "cities", "city", 7)
  local regs = {}
  for rtype, dice in pairs(STACK_REGIONS) do
    for _, d in ipairs(dice) do regs[#regs + 1] = rtype .. "_" .. d end
  end
  for _, k in ipairs(g:shuffled(regs)) do g:create(nil, "regions", k, 1) end
  local basic = {}
  local kinds = {}
  for k, d in pairs(CARDS) do
    if (EXPANSION_TYPE[d.type] or d.type == "action") and (d.copies or 0) > 0 then kinds[#kinds + 1] = k end
  end
  table.sort(kinds)
  for _, k in ipairs(kinds) do
    for _ = 1, CARDS[k].copies do basic[#basic + 1] = k end
  end
  basic = g:shuffled(basic)
  local per = #basic // #STACKS
  for i, k in ipairs(basic) do
    local s = math.min((i - 1) // per + 1, #STACKS)
    g:create(nil, STACKS[s], k, 1)
  end
  -- Other Preparations 4-5: the event deck with Yule fourth from the bottom.
  for _, k in ipairs(event_list()) do g:create(nil, "revealed", k, 1) end
  g:create(nil, "revealed", "yule", 1)
  build_event_deck(g)
end)

local function draw_card(g, p, stack)
  local k = g:draw(nil, stack, p, "hand")
  if k then g:tell({ p }, "you draw " .. kept_card_text(g, k) .. " from " .. stack) end
  return k
end

-- The Game Begins: the high roller starts (rolls again on a tie).
local function roll_for_start(g)
  local first
  repeat
    local a, b = g:roll(1)[1], g:roll(1)[1]
    g:log("start roll: red " .. a .. ", blue " .. b)
    if a ~= b then first = a > b and 1 or 2 end
  until first
  g:set("starting_player", first)
  g:log(name(g, first) .. " starts")
  return first
end

sequence("setup", "rivals.start", function(g)
  -- The Game Begins: the starting player draws 3 cards from one draw stack, the other
  -- player 3 from another.
  local first = roll_for_start(g)
  for i, p in ipairs(order_from(g, first)) do
    for _ = 1, 3 do draw_card(g, p, STACKS[i]) end
  end
  g:set_current(first)
  g:set_turn(1)
  g:set_phase("roll")
  g:run("turn_begin", first)
end)

-- For the parts after this one.
shared.build_event_deck, shared.draw_card = build_event_deck, draw_card
shared.roll_for_start = roll_for_start
