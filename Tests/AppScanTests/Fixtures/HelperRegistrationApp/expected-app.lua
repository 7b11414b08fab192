-- Written by `lifesim scan --emit-app` from the Swift app (docs/scan.md). Each handler logs its call and
-- cites the Swift it mirrors (paths from the folder scanned); fill in the behaviour that matters.
--
-- Lowered from the Swift:
--   a stub per delegate method, which logs its call
--   2 BGTask registrations
--   1 background task (ended 1 s after it begins)
--   1 condition the scan cannot decide, as `choose(site)`: the run's seed decides, or --choose SITE=true|false
-- Methods: the effects of 2 of 2 delegate methods with lifecycle effects (100 %); 1 more only logs its call.
-- Not read: what the handlers do beyond these effects (the scan reads no other work).
app { name = "HelperRegistrationApp", root = "Root", sceneManifest = "configured", bgTaskIdentifiers = {
  "com.example.notes.refresh",
  "com.example.notes.cleanup",
  "com.example.notes.sync",
} }

-- AppDelegate.application(_:didFinishLaunchingWithOptions:)
--   at App/AppDelegate.swift:5
function AppDelegate.didFinishLaunchingWithOptions(...)
  log("AppDelegate.didFinishLaunchingWithOptions")
  -- register(forTaskWithIdentifier:) at App/BackgroundScheduler.swift:14
  BGTaskScheduler:register("com.example.notes.refresh", function(task)
    -- the Swift's launch handler at
    --   App/BackgroundScheduler.swift:14
    --   and handleRefresh at App/BackgroundScheduler.swift:30
    task.expirationHandler = function() task:setTaskCompleted(false) end
    task:setTaskCompleted(true)
  end)
  -- a refresh request, as the Swift submits one somewhere the scan does not follow (bg_task runs it)
  -- 1 refresh request is pending at once: whose is a choice, and each battery case submits its own
  if choose("submit com.example.notes.refresh") then
    BGTaskScheduler:submit { id = "com.example.notes.refresh", kind = "refresh" }
  end
  -- register(forTaskWithIdentifier:) at App/BackgroundScheduler.swift:17
  BGTaskScheduler:register("com.example.notes.cleanup", function(task)
    -- the Swift's launch handler at
    --   App/BackgroundScheduler.swift:17
    --   and handleCleanup at App/BackgroundScheduler.swift:31
    task.expirationHandler = function() task:setTaskCompleted(false) end
    task:setTaskCompleted(true)
  end)
  -- a refresh request, as the Swift submits one somewhere the scan does not follow (bg_task runs it)
  -- 1 refresh request is pending at once: whose is a choice, and each battery case submits its own
  if choose("submit com.example.notes.cleanup") then
    BGTaskScheduler:submit { id = "com.example.notes.cleanup", kind = "refresh" }
  end
  return true
end

-- AppDelegate.application(_:configurationForConnecting:options:)
--   at App/AppDelegate.swift:16
function AppDelegate.configurationForConnecting(...)
  log("AppDelegate.configurationForConnecting")
end

-- SceneDelegate.sceneDidEnterBackground(_:)
--   at App/SceneDelegate.swift:6
function SceneDelegate.sceneDidEnterBackground(...)
  log("SceneDelegate.sceneDidEnterBackground")
  -- beginBackgroundTask at App/BackgroundScheduler.swift:23
  local task
  task = UIApplication.shared:beginBackgroundTask("save", function()
    -- the Swift's handler ends the task later, in a closure it starts: still open when it returns
    after(0, function() UIApplication.shared:endBackgroundTask(task) end)
  end)
  -- the work it covers: true ends the task a second later, false keeps it open past the allowance
  if choose("App/BackgroundScheduler.swift:23") then
    after(1, function() UIApplication.shared:endBackgroundTask(task) end)
  end
end

controller "Root" {}
