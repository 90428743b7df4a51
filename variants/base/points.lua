-- CATAN: victory points, Longest Road, Largest Army, and winning.
-- Rulebook: Ending the Game; Almanac: Victory Points, Longest Road, Largest Army,
-- Ending the Game.
-- A part of ../base.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local plural, hand_size, opt, name = shared.plural, shared.hand_size, shared.opt, shared.name

-- Points (Victory Points) ----------------------------------------------------------------

filter("victory_points", "base.points", function(g, v, p, hidden)
  v = v + g:piece_count(p, "settlement") + 2 * g:piece_count(p, "city")
  if g:get("longest_road") == p then v = v + 2 end
  if g:get("largest_army") == p then v = v + 2 end
  -- Victory point cards stay hidden until they win the game.
  if hidden or g:winner() then
    v = v + g:count(p, "dev", "victory_point") + g:count(p, "dev_new", "victory_point")
  end
  return v
end)

-- Where the points come from, for the summary at the game's end: the same sources as
-- base.points, in the rulebook's words (victory point cards counted, as at the end).
filter("points_by_source", "base.points_by_source", function(g, sources, p)
  local function add(source, n) if n > 0 then sources[#sources + 1] = { source, n } end end
  local settlements, cities = g:piece_count(p, "settlement"), g:piece_count(p, "city")
  add(plural(settlements, "settlement"), settlements)
  add(cities == 1 and "city" or "cities", 2 * cities)
  if g:get("longest_road") == p then add("Longest Road", 2) end
  if g:get("largest_army") == p then add("Largest Army", 2) end
  local cards = g:count(p, "dev", "victory_point") + g:count(p, "dev_new", "victory_point")
  add(plural(cards, "victory point card"), cards)
  return sources
end)

filter("describe", "base.describe", function(g, info, p)
  info.knights = g:count(p, "played", "knight")
  info.road_length = g:longest_trail(p, "road")
  info.longest_road = g:get("longest_road") == p
  info.largest_army = g:get("largest_army") == p
  info.resource_cards = hand_size(g, p)
  info.development_cards = g:count(p, "dev") + g:count(p, "dev_new")
  return info
end)

-- The line `show players` prints after a player's points. It runs after the other
-- describe hooks, so a child that renames the army (info.army_name, info.army) or adds
-- fields sees its change here.
filter("describe", "base.summary", function(g, info, p)
  local tags = {}
  if info.longest_road then tags[#tags + 1] = "Longest Road" end
  if info.largest_army then tags[#tags + 1] = "Largest Army" end
  local res, dev, army = info.resource_cards or 0, info.development_cards or 0, info.army or info.knights or 0
  -- The army's name is plural ("knights", "soldiers"); one is said without the s.
  local army_name = info.army_name or "knights"
  if army == 1 then army_name = army_name:gsub("s$", "") end
  -- Short enough that a player's line of `show players` fits 80 columns.
  info.summary = string.format("%d %s  %d %s  %d %s  road %d%s",
    res, plural(res, "resource card"), dev, plural(dev, "development card"), army,
    army_name, info.road_length or 0,
    #tags > 0 and ("  [" .. table.concat(tags, ", ") .. "]") or "")
  return info
end, { priority = 100 })

-- Longest Road (Almanac: Longest Road, including its Special Case) -------------------------

-- `before`: after a settlement, the holder's road length before it was built (a shorter
-- road now means the settlement broke it).
local function update_longest_road(g, before)
  local holder = g:get("longest_road")
  local best, leaders = 0, {}
  local lengths = {}
  for p = 1, g:players() do
    local len = g:longest_trail(p, "road")
    lengths[p] = len
    if len > best then best, leaders = len, { p } elseif len == best then leaders[#leaders + 1] = p end
  end
  -- The holder keeps the card while tied for the longest road; only a longer road takes it.
  -- Option longest_road_tie=set_aside: once a settlement broke the holder's road, a tie for
  -- the longest sets the card aside, holder included (Family FAQ; older rules).
  if holder and lengths[holder] >= 5 and lengths[holder] == best then
    local broken = before and lengths[holder] < before
    if not (broken and #leaders > 1 and opt(g, "longest_road_tie") == "set_aside") then return end
  end
  local new
  if best >= 5 and #leaders == 1 then new = leaders[1] end
  if new ~= holder then
    g:set("longest_road", new)
    if new then
      g:log(name(g, new) .. " takes Longest Road (" .. best .. " roads)")
    else
      g:log("Longest Road is set aside")
    end
    g:emit("longest_road_changed", { from = holder, to = new })
  end
end

-- Largest Army: the first to play 3 knights, then whoever has more knights than the holder
-- ("they immediately take the special card"), even fewer than 3 once the holder has given
-- knights up (Helpers of Catan, Vincent). `card` is the played card counted ("knight";
-- classic's "soldier"), `army` their name in the log ("knights").
local function update_largest_army(g, p, card, army)
  local holder = g:get("largest_army")
  if holder == p then return end
  local mine = g:count(p, "played", card)
  if holder then
    if g:count(holder, "played", card) >= mine then return end
  elseif mine < 3 then
    return
  end
  g:set("largest_army", p)
  g:log(name(g, p) .. " takes Largest Army (" .. mine .. " " .. army .. ")")
  g:emit("largest_army_changed", { from = holder, to = p })
end

-- A variant that takes face-up knights away emits "knights_changed" ({ seat }, the seat that
-- lost them): whoever now has more knights than the holder takes Largest Army, asked
-- clockwise from the player whose turn it is.
on("knights_changed", "base.largest_army", function(g)
  local n = g:players()
  for i = 0, n - 1 do update_largest_army(g, (g:current() - 1 + i) % n + 1, "knight", "knights") end
end)

-- A seat's points, hidden victory point cards included (every variant's filters).
local function engine_points(g, p) return g:filter("victory_points", 0, p, true) end

-- Ending the Game: 10 points during your own turn, hidden victory point cards included.
-- 5-6 players: a Special Building Phase is not the builder's turn (it comes "between player
-- turns"), so it wins nothing; 10 points then win once the builder's own turn begins.
-- Checked after every action; the points are counted again only once something they read
-- has changed (`g:cached` on "recorded").
sequence("after_action", "base.victory", function(g)
  if g:winner() then return end
  local ph = g:phase()
  if ph == "setup" or ph == "special_building" then return end
  local p = g:current()
  local points = g:cached(engine_points, p, "recorded")
  if points >= g:option("victory_points") then
    g:declare_winner(p)
    g:log(name(g, p) .. " wins with " .. points .. " points!")
    g:emit("game_won", { seat = p })
  end
end)

-- For the parts after this one.
shared.update_longest_road, shared.update_largest_army = update_longest_road, update_largest_army
