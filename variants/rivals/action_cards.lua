-- Rivals for Catan: playing action cards.
-- Rulebook: Game Turn 2a: Action Cards.
-- A part of ../rivals.lua, run in the order it lists: `shared` holds the helpers of the
-- parts before this one, and this one adds those the parts after it use.
local shared = ...
local P, CARDS = shared.P, shared.CARDS
local EXPANSION_TYPE, name, cards_text = shared.EXPANSION_TYPE, shared.name, shared.cards_text
local total, top, own, regions = shared.total, shared.top, shared.own, shared.regions
local expansions, fits, stock = shared.expansions, shared.fits, shared.stock
local can_pay = shared.can_pay
local combos, resources_only, in_hand = shared.combos, shared.resources_only, shared.in_hand
local requirement, discard_card = shared.requirement, shared.discard_card
local in_action, nth_of_pairs = shared.in_action, shared.nth_of_pairs
local resolve, spend_choices = shared.resolve, shared.spend_choices

-- Action cards --------------------------------------------------------------------------------

local function may_play(g, p, kind)
  if not in_action(g, p) or not in_hand(g, p, kind) then return false end
  return requirement(g, p, kind)
end

-- Goldsmith: pay 3 gold, take any 2 resources. "You may take the gold from different gold
-- fields and/or from the Gold Cache": the owner names them (`spend`) when that is open.
action {
  name = "play_goldsmith",
  phases = { "action" },
  syntax = "play goldsmith <cards>",
  help = "play the Goldsmith: pay 3 gold, take any 2 resources (e.g. `play goldsmith ore grain`)",
  when = function(g, p) return may_play(g, p, "goldsmith") end,
  options = function(g, p)
    if stock(g, p).gold < 3 then return {} end
    return combos(g, 2)
  end,
  legal = function(g, p, get)
    if not resources_only(get) or total(get) ~= 2 then return deny("the Goldsmith gives exactly 2 resources") end
    if stock(g, p).gold < 3 then return deny("the Goldsmith costs 3 gold") end
    return true
  end,
  apply = function(g, p, get)
    discard_card(g, p, "goldsmith")
    g:log(name(g, p) .. " plays the Goldsmith: 3 gold for " .. cards_text(get))
    local steps = spend_choices(g, p, { gold = 3 }, "goldsmith")
    steps[#steps + 1] = { t = "receive", seat = p, get = get }
    resolve(g, steps)
  end,
}

-- Merchant Caravan: give exactly 2 resources (alike or not), take any 2. "The resources may
-- come from the same or different regions": the owner names them (`spend`) when that is open.
action {
  name = "play_merchant_caravan",
  phases = { "action" },
  syntax = "play merchant_caravan <cards> for <cards>",
  help = "play the Merchant Caravan: exchange any 2 of your resources for any 2",
  when = function(g, p) return may_play(g, p, "merchant_caravan") end,
  options = function(g, p)
    local out = {}
    local gets = combos(g, 2)
    for _, give in ipairs(combos(g, 2, stock(g, p))) do
      for _, get in ipairs(gets) do out[#out + 1] = { give, get } end
    end
    return out
  end,
  -- The entry `options` lists at x's place, counted instead of built (a bot's draw).
  sample = function(g, p, x) return nth_of_pairs(combos(g, 2, stock(g, p)), combos(g, 2), x) end,
  legal = function(g, p, give, get)
    if not resources_only(give) or not resources_only(get) or total(give) ~= 2 or total(get) ~= 2 then
      return deny("the Merchant Caravan exchanges exactly 2 resources for 2")
    end
    if not can_pay(g, p, give) then return deny("you do not have " .. cards_text(give)) end
    return true
  end,
  apply = function(g, p, give, get)
    discard_card(g, p, "merchant_caravan")
    g:log(name(g, p) .. " plays the Merchant Caravan: " .. cards_text(give) .. " for " .. cards_text(get))
    local steps = spend_choices(g, p, give, "merchant caravan")
    steps[#steps + 1] = { t = "receive", seat = p, get = get }
    resolve(g, steps)
  end,
}

-- Relocation: swap 2 of your regions (with what they store) or 2 of your expansion cards.
local function relocation_pairs(g, p)
  local out = {}
  local regs = regions(g, p)
  for i = 1, #regs do
    for j = i + 1, #regs do out[#out + 1] = { regs[i].label, regs[j].label } end
  end
  local ex = expansions(g, p)
  for i = 1, #ex do
    for j = i + 1, #ex do
      local a, b = ex[i], ex[j]
      if fits(g, p, a.card, b.row, b.col) and fits(g, p, b.card, a.row, a.col) then
        out[#out + 1] = { a.label, b.label }
      end
    end
  end
  return out
end

action {
  name = "play_relocation",
  phases = { "action" },
  syntax = "play relocation <slot> <slot>",
  help = "play Relocation: swap 2 of your regions or 2 of your expansion cards",
  when = function(g, p) return may_play(g, p, "relocation") end,
  options = relocation_pairs,
  legal = function(g, p, a, b)
    local ra, ca = own(g, p, a)
    local rb, cb = own(g, p, b)
    if not ra or not rb then return deny("both cards must be in your principality") end
    local da, db = CARDS[top(g, p, ra, ca) or ""], CARDS[top(g, p, rb, cb) or ""]
    if not da or not db or a == b then return deny("name two cards of your principality") end
    if da.type == "region" and db.type == "region" then return true end
    if EXPANSION_TYPE[da.type] and EXPANSION_TYPE[db.type] then
      if not (fits(g, p, da.name, rb, cb) and fits(g, p, db.name, ra, ca)) then
        return deny("each card must still stand on a site it may be placed on")
      end
      return true
    end
    return deny("Relocation swaps 2 regions or 2 expansion cards")
  end,
  apply = function(g, p, a, b)
    local ra, ca = own(g, p, a)
    local rb, cb = own(g, p, b)
    discard_card(g, p, "relocation")
    g:swap_slots(p, P, ra, ca, rb, cb)
    g:log(name(g, p) .. " plays Relocation: " .. a .. " and " .. b .. " swap places")
  end,
}

-- For the parts after this one.
shared.may_play = may_play
