-- outcome: watchdog
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidAppear = function(vc) after(1, function() while true do end end) end }
