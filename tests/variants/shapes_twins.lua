-- tests/action_shapes.rs: rules written twice, once with their common parts declared
-- (`bastion`, `boast`) and once in Lua (`keep`, `brag`), so that every listing and every
-- refusal of the two can be compared.
variant { extends = "base" }

local function why(g, p) return "only in your turn, once the dice are rolled" end

local function own_settlement(g, p, node)
  local kind, owner = g:at("intersection", node)
  if kind ~= "settlement" or owner ~= p then return false, "that is not your settlement" end
  return true
end

local function upgrade(g, p, node)
  catan.pay(g, p, g:filter("cost", {}, "city", p))
  g:upgrade(node, "city")
  if g:phase() == "trade" then g:set_phase("build") end
end

action {
  name = "bastion",
  help = "upgrade a settlement (declared needs)",
  syntax = "bastion <intersection>",
  phases = { "main", "trade", "build" },
  why_not = why,
  turn = true,
  supply = "city",
  cost = { "city", from = "hand" },
  options = function(g, p) return g:pieces_of(p, "settlement") end,
  legal = own_settlement,
  apply = upgrade,
}

action {
  name = "keep",
  help = "upgrade a settlement (needs in Lua)",
  syntax = "keep <intersection>",
  phases = { "main", "trade", "build" },
  why_not = why,
  when = function(g, p) return p == g:current() end,
  options = function(g, p)
    if g:supply(p, "city") == 0 or not g:holds(p, "hand", g:filter("cost", {}, "city", p)) then return {} end
    return g:pieces_of(p, "settlement")
  end,
  legal = function(g, p, node)
    local ok, reason = own_settlement(g, p, node)
    if not ok then return false, reason end
    if g:supply(p, "city") == 0 then return false, "you have no city left" end
    local price = g:filter("cost", {}, "city", p)
    if not g:holds(p, "hand", price) then return false, "you cannot pay " .. catan.cards_text(price) end
    return true
  end,
  apply = upgrade,
}

action {
  name = "boast",
  help = "boast of a knight in hand (declared needs)",
  phases = { "roll", "main", "trade", "build" },
  why_not = why,
  turn = true,
  holds = { "dev", "knight" },
  apply = function(g, p) g:log("%s boasts", g:color(p)) end,
}

action {
  name = "brag",
  help = "boast of a knight in hand (needs in Lua)",
  phases = { "roll", "main", "trade", "build" },
  why_not = why,
  when = function(g, p) return p == g:current() and g:count(p, "dev", "knight") > 0 end,
  apply = function(g, p) g:log("%s boasts", g:color(p)) end,
}
