-- tests/pipeline.rs: the points filter is replaced: seat 1 counts 6, every other seat 5,
-- whatever they have built.
variant { extends = "base" }

replace_hook("base.points", function(g, v, p, hidden)
  if p == 1 then return v + 6 end
  return v + 5
end)
