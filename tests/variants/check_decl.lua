-- tests/check.rs: an option whose default is not of its type.
variant {
  extends = "base",
  description = "declaration fixture",
  options = {
    { name = "bonus", type = "int", default = "two", doc = "bonus points" },
  },
}
