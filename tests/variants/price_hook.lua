-- tests/getters.rs: a module whose "cost" hook makes a road dearer by a wool for the first
-- seat, so that g:price runs the filter (the engine hands over the declared prices only
-- while no hook changes a price).
variant { description = "a road costs the first seat a wool more (tests)" }

filter("cost", "price_hook.cost", function(g, cards, what, p)
  if what == "road" and p == 1 then cards.wool = (cards.wool or 0) + 1 end
  return cards
end)
