-- Breach: `tonumber` on a numeral of 200 characters (spaces, then a digit) reads them
-- all in C, several times, for a call charged as one instruction.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local s = string.rep(" ", 199) .. "1"
    while true do tonumber(s) end -- stopped here
  end,
}
