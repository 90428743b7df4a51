-- tests/bots.rs: a wrapper of base's evaluation written before the engine passed the
-- seat's points (it forwards the scratch table alone): base counts them itself then.
variant { extends = "base" }

wrap_hook("base.evaluate", function(original)
  return function(g, v, p, scratch)
    return original(g, v, p, scratch)
  end
end)
