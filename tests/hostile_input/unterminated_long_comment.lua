--[==[ a comment that never closes
local x = 1
