-- Breach: `string.unpack("z", s)` scans a megabyte for its terminating zero in C.
-- expect: runtime
-- message: string.unpack
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local s = string.rep(string.rep("x", 1024), 1024) .. "\0"
    while true do string.unpack("z", s) end -- stopped here
  end,
}
