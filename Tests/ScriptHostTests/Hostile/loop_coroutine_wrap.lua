-- outcome: watchdog
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc) coroutine.wrap(function() while true do end end)() end }
