-- tests/sandbox.rs: a piece's owner is one byte, so more than 254 players is refused.
variant { extends = "base", players = { min = 3, max = 300, default = 4 } }
