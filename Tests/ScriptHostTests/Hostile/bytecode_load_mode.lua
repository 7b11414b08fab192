-- outcome: crash
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc) load("return 1", "x", "b") end }
