-- The small app of the explore benchmark: a navigation app with two controllers that saves
-- inside a background task it always ends. No bugs: every run is a full 30-verb run.
app { name = "Small", root = "List", container = "navigation" }
local function save(application)
  local task
  task = application:beginBackgroundTask("save", function() application:endBackgroundTask(task) end)
  store("saved", true)
  application:endBackgroundTask(task)
end
function AppDelegate.applicationDidEnterBackground(application) save(application) end
function SceneDelegate.sceneDidEnterBackground(scene) save(UIApplication.shared) end
controller "List" {}
controller "Detail" {}
