-- outcome: watchdog
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc) xpcall(function() error("x") end, function() while true do end end) end }
