-- Breach: arithmetic on a string runs the string library's metamethod, a C function,
-- which reads the numeral whole: two instructions, hundreds of bytes read.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local s = string.rep(" ", 199) .. "1"
    local n = 0
    while true do n = n + s; n = n + s; n = n + s; n = n + s; n = n + s; n = n + s; n = n + s; n = n + s end -- stopped here
  end,
}
