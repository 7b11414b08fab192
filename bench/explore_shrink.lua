-- The shrink benchmark's app: presenting the Vault and then getting a memory warning while
-- it is on screen crashes. The essential verbs: launch(), present("Vault"), memory_warning().
app { name = "Vault", root = "List", container = "navigation" }
controller "List" {}
controller "Other" {}
controller "Vault" {
  didReceiveMemoryWarning = function(vc) error("vault key dropped under memory pressure") end,
}
