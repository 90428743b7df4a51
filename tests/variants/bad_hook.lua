-- tests/pipeline.rs: removing a hook that does not exist fails the load at this line.
variant { extends = "base" }

remove_hook("base.no_such_hook") -- BAD HOOK HERE
