-- tests/pipeline.rs: an action whose `legal` says when it is asked (a g:debug line), so a
-- test sees whether `perform` checked it again after a listing offered it.
variant { extends = "base" }

action {
  name = "ping",
  syntax = "ping",
  help = "count a ping (tests)",
  when = function(g, p) return p == g:current() end,
  legal = function(g, p)
    g:debug("legal asked of ping")
    return true
  end,
  apply = function(g, p) g:set("pings", (g:get("pings") or 0) + 1) end,
}
