-- tests/pipeline.rs: a child that wraps `legal` of an action with a `sample` (base's
-- discard): the bots must then draw from the options its `legal` lets through.
variant { extends = "base", description = "ore may not be discarded (tests)" }

wrap_action("discard", {
  legal = function(original)
    return function(g, p, cards)
      if cards.ore then return deny("ore may not be discarded here") end
      return original(g, p, cards)
    end
  end,
})
