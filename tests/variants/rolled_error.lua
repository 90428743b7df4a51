-- tests/sandbox.rs and tests/repl.rs: a `rolled` subscriber with a bug that shows on
-- every roll of 8. The error must name this hook and line, leave the game intact and
-- savable, and `catan sim` must count the games it breaks.
variant { extends = "base", description = "base with a rolled hook that fails on 8" }

on("rolled", "rolled_error.eights", function(g, e)
  if e.sum == 8 then error("eights are not handled") end -- ROLLED FAILS HERE
end)
