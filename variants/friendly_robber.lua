-- Friendly robber (a common house rule): the robber, moved on a 7 or by a knight, may not
-- go to a hex where a player with few public victory points (2 or fewer by default) has a
-- settlement or city, unless every hex it could go to is such a hex.
-- The worked example of docs/modding.md.

variant {
  extends = "base",
  description = "CATAN with the friendly robber: hexes of players with 2 or fewer public "
    .. "victory points are safe from the robber (unless no other hex is left).",
  options = {
    { name = "friendly_robber_points", type = "int", default = 2, min = 0, max = 30,
      doc = "players with at most this many public victory points are safe from the robber" },
  },
}

-- base.lua lists every hex the robber may move to and passes the list through the
-- "robber_targets" filter. This hook runs late (priority 100) so that it sees the list
-- after any other variant's changes, and keeps only the hexes nobody protected touches.
filter("robber_targets", "friendly_robber.targets", function(g, hexes)
  local limit = g:option("friendly_robber_points")
  local protected = {}
  for p = 1, g:players() do
    -- hidden = false: the points everyone can see (no victory point cards in hand).
    protected[p] = g:filter("victory_points", 0, p, false) <= limit
  end
  local allowed = {}
  for _, h in ipairs(hexes) do
    local safe = false
    for _, owner in ipairs(g:owners_at(h)) do
      if protected[owner] then safe = true end
    end
    if not safe then allowed[#allowed + 1] = h end
  end
  if #allowed == 0 then return hexes end -- nowhere else to go: the rule gives way
  return allowed
end, { priority = 100 })
