-- outcome: exit2
app { root = "Home", container = "navigation" }
controller "Home" {}
controller "Detail" {}
require "/etc/passwd"
