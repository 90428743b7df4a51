-- Rivals for Catan: trading with the bank.
-- Rulebook: Game Turn 2c: Regular and Improved Exchange Rate ("The resources paid can be
-- taken from various regions of the same type": the player names them, `spend`).
-- A part of ../rivals.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local P, RESOURCES, IS_RESOURCE = shared.P, shared.RESOURCES, shared.IS_RESOURCE
local CARDS, contains, name = shared.CARDS, shared.contains, shared.name
local cards_text, top, site_regions = shared.cards_text, shared.top, shared.site_regions
local label, own, ships, expansions = shared.label, shared.own, shared.ships, shared.expansions
local stock, can_pay, gain = shared.stock, shared.can_pay, shared.gain
local only_kind, in_action = shared.only_kind, shared.in_action
local resolve, spend_choices, givers = shared.resolve, shared.spend_choices, shared.givers

-- Trading -----------------------------------------------------------------------------------------

-- Regular Exchange Rate 3:1; Improved Exchange Rate 2:1 with a trade ship of that resource.
local function ratio(g, p, r)
  local best = 3
  for _, s in ipairs(ships(g, p)) do
    if s.def.ship == r then best = 2 end
  end
  return g:filter("trade_ratio", best, p, r)
end

-- What p can trade now: for each resource p stores enough of, in RESOURCES order, a group of
-- it at p's rate ({ { ore = 3 }, { wool = 2 } }).
local function trade_gives(g, p)
  local have, out = stock(g, p), {}
  for _, r in ipairs(RESOURCES) do
    local k = ratio(g, p, r)
    if have[r] >= k then out[#out + 1] = { [r] = k } end
  end
  return out
end

action {
  name = "trade",
  phases = { "action" },
  syntax = "trade <cards> for <cards>",
  help = "trade 3 resources of one type (2 with its trade ship) for 1 other, e.g. `trade 3 ore for wool`;"
    .. " when more than one region could pay you name them, `spend O4` for each resource",
  turn = true,
  -- Each group p can give for each other resource (g:trades), and the one at a bot's draw
  -- without listing the rest (g:trade_at).
  options = function(g, p) return g:trades(trade_gives(g, p), RESOURCES) end,
  sample = function(g, p, x) return g:trade_at(trade_gives(g, p), RESOURCES, nil, x) end,
  legal = function(g, p, give, take)
    local kinds, r = 0, nil
    for k in pairs(give) do kinds, r = kinds + 1, k end
    if kinds ~= 1 or not IS_RESOURCE[r] then return deny("give resources of one type, e.g. `trade 3 ore for wool`") end
    local get, n = only_kind(take)
    if not get or n ~= 1 or not IS_RESOURCE[get] then return deny("take 1 resource, e.g. `trade 3 ore for wool`") end
    -- "You can always trade 3 for 1": a trade ship improves the rate, it does not
    -- take the regular one away.
    local k = ratio(g, p, r)
    local worst = math.max(3, k)
    if give[r] < k or give[r] > worst then
      return deny("you trade " .. r .. " at " .. (k == worst and (k .. ":1") or (k .. ":1 or " .. worst .. ":1"))
        .. " for 1 resource")
    end
    if get == r then return deny("take a different resource") end
    if not can_pay(g, p, give) then return deny("you do not have " .. cards_text(give)) end
    return true
  end,
  -- The regions that pay are the player's ("taken from various regions of the same
  -- type"): a `spend` choice for each resource while more than one region could pay and
  -- not all must (dice.lua, spend_choices); what is forced is paid at once.
  apply = function(g, p, give, take)
    local get = only_kind(take)
    local steps = spend_choices(g, p, give, "trade")
    local r, n = only_kind(give)
    if #steps > 0 then
      local from = {}
      for i, s in ipairs(givers(g, p, r)) do from[i] = s.label end
      g:log("%s trades %d %s for %s: which regions pay? `spend %s` for each %s", name(g, p), n, r, get,
        table.concat(from, "` or `spend "), r)
      g:emit("traded", { seat = p, give = give, get = get })
      steps[#steps + 1] = { t = "receive", seat = p, get = { [get] = 1 }, reason = "trade" }
      resolve(g, steps)
      return
    end
    local got = gain(g, p, get, 1)
    if IS_RESOURCE[r] and n > 1 then
      g:log("%s trades %d %s for %s%s", name(g, p), n, r, get, got == 0 and " (lost: no room)" or "")
    else
      g:log(name(g, p) .. " trades " .. cards_text(give) .. " for " .. get .. (got == 0 and " (lost: no room)" or ""))
    end
    g:emit("traded", { seat = p, give = give, get = get })
  end,
}

-- Large Trade Ship: 2 resources from the region on its left or right for 1 of choice.
local function large_ship_regions(g, p)
  local out = {}
  for _, s in ipairs(expansions(g, p, "ship")) do
    if s.def.large_ship then
      for _, rc in ipairs(site_regions(s.row, s.col)) do
        local d = CARDS[top(g, p, rc[1], rc[2]) or ""]
        if d and d.type == "region" and g:store(p, P, rc[1], rc[2]) >= 2 then
          local l = label(g, p, rc[1], rc[2])
          if not contains(out, l) then out[#out + 1] = l end
        end
      end
    end
  end
  return out
end

action {
  name = "trade_from",
  phases = { "action" },
  syntax = "trade from <slot> for <resource>",
  help = "Large Trade Ship: 2 resources from the region left or right of it for 1 of your choice",
  turn = true,
  options = function(g, p)
    local out = {}
    for _, l in ipairs(large_ship_regions(g, p)) do
      local r, c = own(g, p, l)
      local res = CARDS[top(g, p, r, c)].resource
      for _, t in ipairs(RESOURCES) do
        if t ~= res then out[#out + 1] = { l, t } end
      end
    end
    return out
  end,
  legal = function(g, p, lbl, get)
    if not contains(large_ship_regions(g, p), lbl) then
      return deny("name a region with 2 resources left or right of your Large Trade Ship")
    end
    local r, c = own(g, p, lbl)
    if CARDS[top(g, p, r, c)].resource == get then return deny("take a different resource") end
    return true
  end,
  apply = function(g, p, lbl, get)
    local r, c = own(g, p, lbl)
    local res = CARDS[top(g, p, r, c)].resource
    g:set_store(p, P, r, c, g:store(p, P, r, c) - 2)
    local got = gain(g, p, get, 1)
    g:log(name(g, p) .. " trades 2 " .. res .. " from " .. lbl .. " by the Large Trade Ship for " .. get
      .. (got == 0 and " (lost: no room)" or ""))
    g:emit("traded", { seat = p, give = { [res] = 2 }, get = get })
  end,
}
