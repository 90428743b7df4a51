variant { extends = "base" }
--