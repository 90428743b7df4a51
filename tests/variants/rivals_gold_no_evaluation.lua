-- docs/bots.md, tuning from nothing: The Era of Gold without its evaluation (bots fall
-- back to the victory_points filter, or to weights tuned from nothing).
variant { extends = "rivals_gold" }

remove_hook("rivals.evaluate")
