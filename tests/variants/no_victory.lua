-- tests/pipeline.rs: nobody ever wins (the victory hook is removed).
variant { extends = "base" }

remove_hook("base.victory")
