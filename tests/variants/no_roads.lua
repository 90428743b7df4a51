-- tests/pipeline.rs: no roads after the set-up (the road action's legal check is wrapped).
variant { extends = "base" }

wrap_action("road", {
  legal = function(original)
    return function(g, p, path)
      if g:phase() ~= "setup" then
        return deny("roads are closed in this variant") -- NO ROADS HERE
      end
      return original(g, p, path)
    end
  end,
})
