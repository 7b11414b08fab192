-- outcome: watchdog
app { root = "Home", container = "navigation" }
controller "Home" {}
controller "Detail" {}
function SceneDelegate.sceneDidEnterBackground(s)
  UIApplication.shared:beginBackgroundTask("t", function() while true do end end)
end
