-- Rivals for Catan: building roads, settlements, cities and expansions.
-- Rulebook: Game Turn 2a: Building a Road, a Settlement, a City; Settlement/City Expansions.
-- A part of ../rivals.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local P, CENTER, RESOURCES, CARDS = shared.P, shared.CENTER, shared.RESOURCES, shared.CARDS
local contains, name, title, in_grid = shared.contains, shared.name, shared.title, shared.in_grid
local top, label, own, placed = shared.top, shared.label, shared.own, shared.placed
local towns, road_sites, settlement_sites = shared.towns, shared.road_sites, shared.settlement_sites
local sites, can_pay, pay, cost = shared.sites, shared.can_pay, shared.pay, shared.cost
local in_hand, requirement, discard_card = shared.in_hand, shared.requirement, shared.discard_card
local my_turn, nth_of_groups = shared.my_turn, shared.nth_of_groups

-- Building -------------------------------------------------------------------------------------

local function labels_of(g, p, positions)
  local out = {}
  for _, rc in ipairs(positions) do out[#out + 1] = label(g, p, rc[1], rc[2]) end
  return out
end

local function cost_text(c)
  local parts = {}
  for _, r in ipairs(RESOURCES) do
    if (c[r] or 0) > 0 then parts[#parts + 1] = c[r] .. " " .. r end
  end
  return table.concat(parts, ", ")
end

local function in_action(g, p) return my_turn(g, p) end

-- What `help` and `legal` say the centre cards cost the seat now, after every cost filter.
local PRICED = { build_road = "road", build_settlement = "settlement", build_city = "city" }
filter("action_note", "rivals.costs", function(g, text, p, action)
  if not PRICED[action] then return text end
  return "costs " .. cost_text(cost(g, PRICED[action], p))
end)

action {
  name = "build_road",
  phases = { "action" },
  syntax = "build road <slot>",
  help = "build a road at an open end of your centre row",
  turn = true,
  options = function(g, p)
    if g:count(nil, "roads") == 0 or not can_pay(g, p, cost(g, "road", p)) then return {} end
    local out = {}
    for _, c in ipairs(road_sites(g, p)) do out[#out + 1] = label(g, p, CENTER, c) end
    return out
  end,
  legal = function(g, p, lbl)
    local r, c = own(g, p, lbl)
    if not r then return deny(lbl .. " is not in your principality") end
    if r ~= CENTER or not contains(road_sites(g, p), c) then
      return deny("a road goes at an open end of your centre row, next to a settlement or city")
    end
    if g:count(nil, "roads") == 0 then return deny("no road card is left") end
    if not can_pay(g, p, cost(g, "road", p)) then return deny("a road costs " .. cost_text(cost(g, "road", p))) end
    return true
  end,
  apply = function(g, p, lbl)
    local r, c = own(g, p, lbl)
    pay(g, p, cost(g, "road", p))
    g:place_card(nil, "roads", p, P, r, c, "road")
    g:log(name(g, p) .. " builds a road on " .. lbl)
    g:emit("built", { seat = p, card = "road", slot = lbl })
  end,
}

local function settlement_legal(g, p, lbl)
  local r, c = own(g, p, lbl)
  if not r then return deny(lbl .. " is not in your principality") end
  if r ~= CENTER or not contains(settlement_sites(g, p), c) then
    return deny("a settlement goes at the open end of a road")
  end
  if g:count(nil, "settlements") == 0 then return deny("no settlement card is left") end
  if not can_pay(g, p, cost(g, "settlement", p)) then
    return deny("a settlement costs " .. cost_text(cost(g, "settlement", p)))
  end
  return true
end

local function settlement_options(g, p)
  if g:count(nil, "settlements") == 0 or not can_pay(g, p, cost(g, "settlement", p)) then return {} end
  local out = {}
  for _, c in ipairs(settlement_sites(g, p)) do out[#out + 1] = label(g, p, CENTER, c) end
  return out
end

-- The unoccupied corners of the settlement at column c.
local function open_corners(g, p, c)
  local out = {}
  for _, rc in ipairs({ { CENTER - 1, c - 1 }, { CENTER - 1, c + 1 }, { CENTER + 1, c - 1 }, { CENTER + 1, c + 1 } }) do
    if in_grid(rc[1], rc[2]) and not top(g, p, rc[1], rc[2]) then out[#out + 1] = rc end
  end
  return out
end

local function place_settlement(g, p, lbl)
  local r, c = own(g, p, lbl)
  pay(g, p, cost(g, "settlement", p))
  g:place_card(nil, "settlements", p, P, r, c, "settlement")
  g:log(name(g, p) .. " builds a settlement on " .. lbl)
  return c
end

action {
  name = "build_settlement",
  phases = { "action" },
  syntax = "build settlement <slot>",
  help = "build a settlement at the open end of a road; it takes 2 regions",
  turn = true,
  options = settlement_options,
  legal = settlement_legal,
  apply = function(g, p, lbl)
    local c = place_settlement(g, p, lbl)
    -- Building a Settlement: the 2 top regions of the stack go on the unoccupied corners,
    -- with nothing stored.
    for _, rc in ipairs(open_corners(g, p, c)) do
      local stack = g:cards(nil, "regions")
      local kind = stack[#stack]
      if not kind then break end
      g:place_card(nil, "regions", p, P, rc[1], rc[2], kind)
      g:log(name(g, p) .. " takes the region " .. title(kind) .. " (" .. label(g, p, rc[1], rc[2]) .. ")")
    end
    g:emit("built", { seat = p, card = "settlement", slot = lbl })
  end,
}

-- Scout: while building a settlement, choose its 2 regions from the region stack.
action {
  name = "play_scout",
  phases = { "action" },
  syntax = "play scout <slot>",
  help = "play the Scout: build a settlement and choose its 2 regions from the region stack",
  turn = true,
  when = function(g, p) return in_hand(g, p, "scout") end,
  options = settlement_options,
  legal = settlement_legal,
  apply = function(g, p, lbl)
    discard_card(g, p, "scout")
    local c = place_settlement(g, p, lbl)
    g:log(name(g, p) .. " plays the Scout")
    g:emit("built", { seat = p, card = "settlement", slot = lbl })
    if #open_corners(g, p, c) == 0 or g:count(nil, "regions") == 0 then return end
    g:set("scout", { col = c })
    g:set_phase("scout")
    g:tell({ p }, "the region stack: " .. table.concat(g:cards(nil, "regions"), ", "))
  end,
}

local function finish_scout(g)
  g:set("scout", nil)
  g:shuffle(nil, "regions")
  g:set_phase("action")
end

action {
  name = "region",
  phases = { "scout" },
  syntax = "region <word> <slot>",
  help = "scout: take a region of your choice from the region stack for a corner of the new settlement",
  turn = true,
  options = function(g, p)
    local out, seen = {}, {}
    local corners = labels_of(g, p, open_corners(g, p, g:get("scout").col))
    for _, k in ipairs(g:cards(nil, "regions")) do
      if not seen[k] then
        seen[k] = true
        for _, l in ipairs(corners) do out[#out + 1] = { k, l } end
      end
    end
    table.sort(out, function(a, b) if a[1] ~= b[1] then return a[1] < b[1] end return a[2] < b[2] end)
    return out
  end,
  legal = function(g, p, kind, lbl)
    kind = kind:lower()
    if not CARDS[kind] then return deny("'" .. kind .. "' is not a card of this game (see `legal`)") end
    if g:count(nil, "regions", kind) == 0 then return deny("the region stack holds no " .. kind) end
    local r, c = own(g, p, lbl)
    local ok = false
    for _, rc in ipairs(open_corners(g, p, g:get("scout").col)) do
      if rc[1] == r and rc[2] == c then ok = true end
    end
    if not ok then return deny("put the region on an unoccupied corner of the new settlement") end
    return true
  end,
  apply = function(g, p, kind, lbl)
    kind = kind:lower()
    local r, c = own(g, p, lbl)
    g:place_card(nil, "regions", p, P, r, c, kind)
    g:log(name(g, p) .. " chooses the region " .. title(kind) .. " (" .. lbl .. ")")
    if #open_corners(g, p, g:get("scout").col) == 0 or g:count(nil, "regions") == 0 then finish_scout(g) end
  end,
}

action {
  name = "build_city",
  phases = { "action" },
  syntax = "build city <slot>",
  help = "upgrade one of your settlements to a city: 2 points, 2 more building sites",
  turn = true,
  options = function(g, p)
    if g:count(nil, "cities") == 0 or not can_pay(g, p, cost(g, "city", p)) then return {} end
    local out = {}
    for _, t in ipairs(towns(g, p)) do
      if not t.city then out[#out + 1] = label(g, p, CENTER, t.col) end
    end
    return out
  end,
  legal = function(g, p, lbl)
    local r, c = own(g, p, lbl)
    if not r or top(g, p, r, c) ~= "settlement" then return deny("a city is built on one of your settlements") end
    if g:count(nil, "cities") == 0 then return deny("no city card is left") end
    if not can_pay(g, p, cost(g, "city", p)) then return deny("a city costs " .. cost_text(cost(g, "city", p))) end
    return true
  end,
  apply = function(g, p, lbl)
    local r, c = own(g, p, lbl)
    pay(g, p, cost(g, "city", p))
    -- Building a City: the settlement stays underneath.
    g:place_card(nil, "cities", p, P, r, c, "city")
    g:log(name(g, p) .. " builds a city on " .. lbl)
    g:emit("built", { seat = p, card = "city", slot = lbl })
  end,
}

-- Where p builds card `kind` from: the hand, or a game zone the filter `build_from` names
-- (the Theme Games' face-up expansion stack). Returns owner, zone, or nil.
local function build_source(g, p, kind)
  if in_hand(g, p, kind) then return p, "hand" end
  for _, z in ipairs(g:filter("build_from", {}, p)) do
    if g:count(nil, z, kind) > 0 then return nil, z end
  end
  return nil, nil
end

local function buildable_kinds(g, p)
  local out = {}
  for kind in pairs(g:cards(p, "hand")) do out[kind] = true end
  for _, z in ipairs(g:filter("build_from", {}, p)) do
    for kind in pairs(g:cards(nil, z)) do out[kind] = true end
  end
  return out
end

-- Whether p may build `kind` now; with `say`, false comes with the reason (worded only
-- then: listing asks for every card in hand at every draw).
local function may_build_card(g, p, kind, say)
  local d = CARDS[kind]
  if not d or not d.placement then return false, say and ("a " .. title(kind) .. " is not an expansion card") end
  if not select(2, build_source(g, p, kind)) then return false, say and ("you hold no " .. title(kind)) end
  -- "1x": at most one in your principality.
  if d.one_x and g:grid_count(p, P, kind) > 0 then return false, say and ("you may have only one " .. title(kind)) end
  local ok, why = requirement(g, p, kind)
  if not ok then return false, say and (why or ("the requirement of " .. title(kind) .. " is not met")) end
  local price = cost(g, kind, p)
  if not can_pay(g, p, price) then
    return false, say and ("a " .. title(kind) .. " costs " .. cost_text(price))
  end
  return true
end

action {
  name = "build",
  phases = { "action" },
  syntax = "build <word> <slot>",
  help = "place an expansion card from your hand on an empty building site, paying its cost",
  turn = true,
  options = function(g, p)
    local out = {}
    local ps = placed(g, p)
    for kind in pairs(buildable_kinds(g, p)) do
      if may_build_card(g, p, kind) then
        for _, l in ipairs(labels_of(g, p, sites(g, p, kind, ps))) do out[#out + 1] = { kind, l } end
      end
    end
    return out
  end,
  -- The option `options` lists at x's place, counted instead of built (a bot's draw): the
  -- sites of each kind in the same order, one labelled.
  sample = function(g, p, x)
    local ps = placed(g, p)
    local kinds, spots = {}, {}
    for kind in pairs(buildable_kinds(g, p)) do
      if may_build_card(g, p, kind) then kinds[#kinds + 1], spots[#spots + 1] = kind, sites(g, p, kind, ps) end
    end
    local i, rc = nth_of_groups(spots, x)
    return i and { kinds[i], label(g, p, rc[1], rc[2]) } or nil
  end,
  legal = function(g, p, kind, lbl)
    kind = kind:lower()
    if not CARDS[kind] then return deny("'" .. kind .. "' is not a card of this game (see `legal`)") end
    local ok, why = may_build_card(g, p, kind, true)
    if not ok then return deny(why) end
    local r, c = own(g, p, lbl)
    local good = false
    for _, rc in ipairs(r and sites(g, p, kind) or {}) do
      if rc[1] == r and rc[2] == c then good = true end
    end
    if not good then
      return deny(lbl .. " is not an empty building site for a " .. title(kind) .. " (see `legal`)")
    end
    return true
  end,
  apply = function(g, p, kind, lbl)
    kind = kind:lower()
    local r, c = own(g, p, lbl)
    pay(g, p, cost(g, kind, p))
    local owner, zone = build_source(g, p, kind)
    g:place_card(owner, zone, p, P, r, c, kind)
    g:log(name(g, p) .. " builds " .. title(kind) .. " on " .. lbl)
    local d = CARDS[kind]
    if d.on_build then d.on_build(g, p, r, c) end
    g:emit("built", { seat = p, card = kind, slot = lbl })
  end,
}

-- For the parts after this one.
shared.labels_of, shared.cost_text, shared.in_action = labels_of, cost_text, in_action
