-- outcome: exit2
app { root = "Home", container = "navigation" }
controller "Home" {}
controller "Detail" {}
function AppDelegate.applicationDidEnterBackgroud(a) end
