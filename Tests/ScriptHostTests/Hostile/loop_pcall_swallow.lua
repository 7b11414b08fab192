-- outcome: watchdog
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc) while true do pcall(function() while true do end end) end end }
