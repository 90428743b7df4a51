-- Rule-shaped work in the subset both Lua 5.4 and Luau run alike (no goto, no bitwise
-- operators, no integer-only arithmetic): a standard board built from axial coordinates,
-- then turns of production, the distance rule, costs and messages, as variants/base does.
local TERRAINS = { "hills", "forest", "mountains", "fields", "pasture" }
local COSTS = {
  road = { brick = 1, lumber = 1 },
  settlement = { brick = 1, lumber = 1, wool = 1, grain = 1 },
  city = { grain = 2, ore = 3 },
  dev = { wool = 1, grain = 1, ore = 1 },
}
local RESOURCE = { hills = "brick", forest = "lumber", mountains = "ore", fields = "grain", pasture = "wool" }
local COLORS = { "red", "blue", "white", "orange" }

local function build_board()
  local hexes, corner_id, corners, hex_corners = {}, {}, {}, {}
  local offsets = { { 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, 0 }, { -1, 1 }, { 0, 1 } }
  for q = -2, 2 do
    for r = -2, 2 do
      if math.abs(q + r) <= 2 then
        local h = #hexes + 1
        hexes[h] = { q = q, r = r, terrain = TERRAINS[(h % 5) + 1], number = (h % 11) + 2 }
        local list = {}
        for k = 1, 6 do
          local o = offsets[k]
          local key = (3 * q + o[1]) .. "," .. (3 * r + o[2])
          local id = corner_id[key]
          if not id then
            id = #corners + 1
            corner_id[key] = id
            corners[id] = { hexes = {}, near = {}, owner = nil, road = {} }
          end
          list[k] = id
          local c = corners[id]
          c.hexes[#c.hexes + 1] = h
        end
        hex_corners[h] = list
      end
    end
  end
  for h = 1, #hexes do
    local list = hex_corners[h]
    for k = 1, 6 do
      local a, b = corners[list[k]], list[(k % 6) + 1]
      local seen = false
      for _, n in ipairs(a.near) do if n == b then seen = true end end
      if not seen then
        a.near[#a.near + 1] = b
        corners[b].near[#corners[b].near + 1] = list[k]
      end
    end
  end
  return hexes, corners, hex_corners
end

local function can_pay(hand, cost)
  for card, n in pairs(cost) do
    if (hand[card] or 0) < n then return false end
  end
  return true
end

local function open_sites(corners, seat)
  local out = {}
  for i = 1, #corners do
    local c = corners[i]
    if not c.owner then
      local ok = true
      for _, n in ipairs(c.near) do
        if corners[n].owner then ok = false; break end
      end
      if ok then out[#out + 1] = i end
    end
  end
  return out
end

local function run(turns)
  local hexes, corners, hex_corners = build_board()
  local hands, points, log = {}, {}, {}
  for s = 1, 4 do hands[s] = {}; points[s] = 0 end
  local x, robber = 7, 10
  for t = 1, turns do
    local seat = (t % 4) + 1
    x = (x * 75 + 74) % 65537
    local roll = (x % 6) + 1 + ((x // 6) % 6) + 1
    for h = 1, #hexes do
      local hex = hexes[h]
      if hex.number == roll and h ~= robber then
        for _, i in ipairs(hex_corners[h]) do
          local c = corners[i]
          if c.owner then
            local card = RESOURCE[hex.terrain]
            local hand = hands[c.owner]
            hand[card] = (hand[card] or 0) + (c.city and 2 or 1)
          end
        end
      end
    end
    if roll == 7 then robber = (x % #hexes) + 1 end
    local hand = hands[seat]
    local sites = open_sites(corners, seat)
    if #sites > 0 and (t < 9 or can_pay(hand, COSTS.settlement)) then
      local i = sites[(x % #sites) + 1]
      corners[i].owner = seat
      if t >= 9 then
        for card, n in pairs(COSTS.settlement) do hand[card] = hand[card] - n end
      end
      points[seat] = points[seat] + 1
      log[#log + 1] = COLORS[seat] .. " builds a settlement at i" .. i
    elseif can_pay(hand, COSTS.city) then
      for card, n in pairs(COSTS.city) do hand[card] = hand[card] - n end
      points[seat] = points[seat] + 1
      log[#log + 1] = COLORS[seat] .. " builds a city"
    end
    if t % 10 == 0 then
      local order = { 1, 2, 3, 4 }
      table.sort(order, function(a, b) return points[a] > points[b] or (points[a] == points[b] and a < b) end)
      if #log > 64 then log = {} end
    end
    if t % 60 == 0 then
      for i = 1, #corners do corners[i].owner = nil end
      for s = 1, 4 do hands[s] = {} end
    end
  end
  return points[1] + points[2] + points[3] + points[4]
end

-- Crossings: a rule asking the engine (a Rust method on `g`) in a loop.
local function calls(g, n)
  local total = 0
  for k = 1, n do
    total = total + g:count((k % 4) + 1, "hand", "grain")
  end
  return total
end

-- A table from Rust per call (as g:adjacent does).
local function tables(g, n)
  local total = 0
  for k = 1, n do
    local near = g:near((k % 54) + 1)
    total = total + #near
  end
  return total
end
return { run = run, calls = calls, tables = tables }
