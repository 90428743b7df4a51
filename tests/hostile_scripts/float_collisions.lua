-- Breach: floats that differ only past the 31st bit of their mantissa hash alike at
-- every size of a table: no growth spreads them, so a chain of them grows without end
-- and each lookup of another such key walks it all. More than 8 are refused.
-- expect: runtime
-- message: hash alike
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    local t = {}
    for j = 1, 1000 do t[1 + j * 2^-40] = true end -- stopped here
  end,
}
