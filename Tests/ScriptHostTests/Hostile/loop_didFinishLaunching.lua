-- outcome: watchdog
app { root = "Home", container = "navigation" }
controller "Home" {}
controller "Detail" {}
function AppDelegate.didFinishLaunchingWithOptions(a) while true do end end
