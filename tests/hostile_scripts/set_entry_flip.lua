-- Breach: g:set_entry turning a long stored list into a map (an entry past a gap) and
-- back (the entry taken out again) copies every entry in Rust, and scanning a map's
-- keys for 1..n walks them all: work that must be charged by the entries, not as one.
-- expect: budget
-- budget: 20000000
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local list = {}
    for i = 1, 100000 do list[i] = i end
    g:set("long", list)
    while true do g:set_entry("long", 100002, 1); g:set_entry("long", 100002, nil) end -- stopped here
  end,
}
