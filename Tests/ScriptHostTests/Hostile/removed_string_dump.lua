-- outcome: crash
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc) string.dump(function() end) end }
