-- Runs itself: refused.
part("again.lua") -- SELF PART HERE
