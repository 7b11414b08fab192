-- outcome: watchdog
app { root = "Home", container = "navigation" }
controller "Home" {}
controller "Detail" {}
function SceneDelegate.sceneDidEnterBackground(s) while true do end end
