-- Runs second.lua, which runs this part again.
part("second.lua")
