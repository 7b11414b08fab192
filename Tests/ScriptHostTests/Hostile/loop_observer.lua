-- outcome: watchdog
app { root = "Home", container = "navigation" }
controller "Home" {}
controller "Detail" {}
observe("UIApplication.didEnterBackgroundNotification", function() while true do end end)
