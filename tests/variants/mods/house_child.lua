-- tests/check.rs: a mod outside variants/ whose parent sits in the same folder.
variant { extends = "house_parent", description = "house rules from a folder of mods" }
