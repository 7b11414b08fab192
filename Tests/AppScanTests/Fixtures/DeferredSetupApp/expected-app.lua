-- Written by `lifesim scan --emit-app` from the Swift app (docs/scan.md). Each handler logs its call and
-- cites the Swift it mirrors (paths from the folder scanned); fill in the behaviour that matters.
--
-- Lowered from the Swift:
--   a stub per delegate method, which logs its call
--   2 BGTask registrations
--   the notification delegate assignment
-- Methods: the effects of 2 of 2 delegate methods with lifecycle effects (100 %); 1 more only logs its call.
-- Not read: what the handlers do beyond these effects (the scan reads no other work).
app { name = "DeferredSetupApp", root = "Root", sceneManifest = "configured", bgTaskIdentifiers = {
  "com.example.inbox.refresh",
  "com.example.inbox.cleanup",
} }

-- Calls the completion handler UIKit passes last, so that no stub leaves one waiting.
local function complete(...)
  local completion = select(select("#", ...), ...)
  if type(completion) == "function" then completion() end
end

-- AppDelegate.application(_:didFinishLaunchingWithOptions:)
--   at Inbox/AppDelegate.swift:7
function AppDelegate.didFinishLaunchingWithOptions(...)
  log("AppDelegate.didFinishLaunchingWithOptions")
  -- register(forTaskWithIdentifier:) at Inbox/AppDelegate.swift:9
  -- deferred by DispatchQueue.main.async: runs after the handler returns
  after(0, function()
    BGTaskScheduler:register("com.example.inbox.refresh", function(task)
      -- the Swift's launch handler at Inbox/AppDelegate.swift:9
      task.expirationHandler = function() task:setTaskCompleted(false) end
      task:setTaskCompleted(true)
    end)
    -- a refresh request, as the Swift submits one somewhere the scan does not follow (bg_task runs it)
    -- 1 refresh request is pending at once: whose is a choice, and each battery case submits its own
    if choose("submit com.example.inbox.refresh") then
      BGTaskScheduler:submit { id = "com.example.inbox.refresh", kind = "refresh" }
    end
  end)
  -- register(forTaskWithIdentifier:) at Inbox/AppDelegate.swift:21
  -- deferred by perform(_:with:afterDelay:): runs after the handler returns
  after(0, function()
    BGTaskScheduler:register("com.example.inbox.cleanup", function(task)
      -- the Swift's launch handler at Inbox/AppDelegate.swift:21
      task.expirationHandler = function() task:setTaskCompleted(false) end
      task:setTaskCompleted(true)
    end)
    -- a refresh request, as the Swift submits one somewhere the scan does not follow (bg_task runs it)
    -- 1 refresh request is pending at once: whose is a choice, and each battery case submits its own
    if choose("submit com.example.inbox.cleanup") then
      BGTaskScheduler:submit { id = "com.example.inbox.cleanup", kind = "refresh" }
    end
  end)
  -- the notification delegate is set at Inbox/AppDelegate.swift:14
  -- deferred by Task: runs after the handler returns
  after(0, function()
    UNUserNotificationCenter:setDelegate()
  end)
  return true
end

-- AppDelegate.application(_:configurationForConnecting:options:)
--   at Inbox/AppDelegate.swift:26
function AppDelegate.configurationForConnecting(...)
  log("AppDelegate.configurationForConnecting")
end

-- AppDelegate.userNotificationCenter(_:didReceive:withCompletionHandler:)
--   at Inbox/AppDelegate.swift:31
function NotificationDelegate.didReceive(...)
  log("NotificationDelegate.didReceive")
  complete(...)
end

controller "Root" {}
