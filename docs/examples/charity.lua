-- Charity: once per turn, after rolling, a player with no resource card may take one
-- resource card of their choice from the bank.
variant {
  extends = "base",
  description = "CATAN where an empty-handed player may take one card from the bank per turn.",
}

local function empty_handed(g, p) return g:count_category(p, "hand", "resource") == 0 end

action {
  name = "charity",
  syntax = "charity <resource>",
  help = "with no resource card in hand, take one from the bank (once per turn)",
  phases = { "main", "trade", "build" },
  when = function(g, p)
    return p == g:current() and empty_handed(g, p) and not g:get("charity_taken")
  end,
  options = function(g, p)
    local out = {}
    for card, n in pairs(g:cards(nil, "bank")) do -- pairs walks keys in sorted order
      if n > 0 then out[#out + 1] = card end
    end
    return out
  end,
  legal = function(g, p, resource)
    if g:count(nil, "bank", resource) == 0 then return deny("the bank has no " .. resource) end
    return true
  end,
  apply = function(g, p, resource)
    g:move(nil, "bank", p, "hand", resource, 1)
    g:set("charity_taken", true)
    g:log(g:color(p) .. " takes " .. resource .. " from the bank out of charity")
  end,
}

on("turn_ended", "charity.reset", function(g, e) g:set("charity_taken", nil) end)
