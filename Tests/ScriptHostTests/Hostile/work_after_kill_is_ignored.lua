-- outcome: watchdog
app { root = "Home", container = "navigation" }
controller "Home" {}
controller "Detail" {}
function SceneDelegate.sceneDidEnterBackground(s)
  pcall(work, 6)
  store("after", "kill")
end
