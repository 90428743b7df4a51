-- tests/trace.rs: a house rule that prints for its modder with g:debug, and refuses a
-- road on the first turn from its own `legal`, so `trace` has something to show.

variant {
  extends = "base",
  description = "base with a modder's debug lines (trace tests)",
}

filter("cost", "debug_lines.cost", function(g, cost, what, p)
  g:debug("cost of", what, "for", p, cost) -- DEBUG LINE HERE
  return cost
end)

wrap_action("road", {
  legal = function(original)
    return function(g, p, path)
      if g:turn() == 1 then return false, "no roads on the first turn (debug_lines)" end -- NO ROADS HERE
      return original(g, p, path)
    end
  end,
})
