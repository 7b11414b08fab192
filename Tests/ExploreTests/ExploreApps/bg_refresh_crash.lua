-- Planted bug: the background refresh's launch handler crashes, which only a BGTaskScheduler
-- run of the pending request reaches (explore must draw bg_task from the pending requests).
app { name = "Refresher", root = "Home", bgTaskIdentifiers = { "com.example.refresh" } }

function AppDelegate.didFinishLaunchingWithOptions(application, options)
  BGTaskScheduler:register("com.example.refresh", function(task)
    error("the refresh parsed a malformed feed")
  end)
  return true
end

function SceneDelegate.sceneDidEnterBackground(scene)
  BGTaskScheduler:submit { id = "com.example.refresh", kind = "refresh" }
end

controller "Home" {}
