-- Starts an upload in the background and never ends its background task:
-- not even its expiration handler does. iOS kills it (0x2182bad2).
app { name = "Uploader", root = "Home", minimumIOS = 12 }

function AppDelegate.applicationDidEnterBackground(application)
  application:beginBackgroundTask("upload", function()
    log("expiring, but the task is left running")
  end)
end
function SceneDelegate.sceneDidEnterBackground(scene)
  AppDelegate.applicationDidEnterBackground(UIApplication.shared)
end

controller "Home" {}
