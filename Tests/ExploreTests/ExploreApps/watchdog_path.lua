-- Planted bug: a path-dependent watchdog. Presenting the Sheet arms a slow save; going
-- home with the sheet still up makes didEnterBackground block past its 5 s budget.
app { name = "Path", root = "Main", container = "navigation" }
local pending = false
controller "Main" {}
controller "Sheet" {
  viewDidAppear = function(vc, animated) pending = true end,
  viewDidDisappear = function(vc, animated) pending = false end,
}
local function background()
  if pending then work(6) end
end
function AppDelegate.applicationDidEnterBackground(application) background() end
function SceneDelegate.sceneDidEnterBackground(scene) background() end
