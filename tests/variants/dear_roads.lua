-- tests/declared_checks.rs: a house rule that changes a printed price by declaring it
-- again (no cost hook), so the engine still checks the price itself: a road costs 3 brick
-- and a lumber.
variant { extends = "base" }

prices { road = { brick = 3, lumber = 1 } }
