-- Breach attempt: calls of a cheap C function, unrolled, are charged only as the
-- instructions that make them; each call costs more than an instruction.
-- expect: budget
variant { extends = "base" }

action {
  name = "attack",
  apply = function(g, p)
    g:set("touched", true)
    while true do type(1); type(1); type(1); type(1); type(1); type(1); type(1); type(1); type(1); type(1) end -- stopped here
  end,
}
