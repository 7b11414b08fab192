-- Starts a long upload in a background task and ends the task from its
-- expiration handler: suspended cleanly when time runs out, never killed.
app { name = "Uploader", root = "Home", minimumIOS = 12 }

local function upload(application)
  local task
  task = application:beginBackgroundTask("upload", function()
    store("upload", "paused at expiration")
    application:endBackgroundTask(task)
  end)
end

function AppDelegate.applicationDidEnterBackground(application) upload(application) end
function SceneDelegate.sceneDidEnterBackground(scene) upload(UIApplication.shared) end

controller "Home" {}
