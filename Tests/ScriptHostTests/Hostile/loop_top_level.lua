-- outcome: watchdog
app { root = "Home", container = "navigation" }
controller "Home" {}
controller "Detail" {}
while true do end
