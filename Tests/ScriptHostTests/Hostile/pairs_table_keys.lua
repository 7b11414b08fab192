-- outcome: crash
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc) for k in pairs({ [{}] = 1 }) do end end }
