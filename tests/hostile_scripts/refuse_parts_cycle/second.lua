-- Runs first.lua, which is still running: the cycle is refused here.
part("first.lua") -- CYCLE PART HERE
