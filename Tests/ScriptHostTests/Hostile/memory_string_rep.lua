-- outcome: jetsam
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc) local s = string.rep("x", 1e9) end }
