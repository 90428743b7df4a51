local s = [[
