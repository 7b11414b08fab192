-- A clean app: it saves inside a background task it always ends, and does little else.
app { name = "Clean", root = "List", container = "navigation" }
local function save(application)
  local task
  task = application:beginBackgroundTask("save", function() application:endBackgroundTask(task) end)
  store("saved", (stored("saved") or 0) + 1)
  work(0.2)
  application:endBackgroundTask(task)
end
function AppDelegate.applicationDidEnterBackground(application) save(application) end
function SceneDelegate.sceneDidEnterBackground(scene) save(UIApplication.shared) end
controller "List" { viewDidLoad = function(vc) store("loaded", true) end }
controller "Detail" {}
