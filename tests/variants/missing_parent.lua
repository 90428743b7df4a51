-- tests/sandbox.rs: extending a variant that does not exist must fail clearly.
variant { extends = "no_such_variant_anywhere" }
