-- tests/pipeline.rs: an action whose `when` and `legal` say when they are asked (g:debug
-- lines), so a test sees whether `perform` checked it again after a listing offered it,
-- and whether a listing was made again or answered from the last.
variant { extends = "base" }

action {
  name = "ping",
  syntax = "ping",
  help = "count a ping (tests)",
  when = function(g, p)
    g:debug("when asked of ping")
    return p == g:current()
  end,
  legal = function(g, p)
    g:debug("legal asked of ping")
    return true
  end,
  apply = function(g, p) g:set("pings", (g:get("pings") or 0) + 1) end,
}
