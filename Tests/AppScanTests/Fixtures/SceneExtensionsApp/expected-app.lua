-- Written by `lifesim scan --emit-app` from the Swift app (docs/scan.md). Each handler logs its call and
-- cites the Swift it mirrors (paths from the folder scanned); fill in the behaviour that matters.
--
-- Lowered from the Swift:
--   a stub per delegate method, which logs its call
--   the notification delegate assignment
-- Methods: the effects of 4 of 4 delegate methods with lifecycle effects (100 %); 10 more only log their call.
-- Not read: what the handlers do beyond these effects (the scan reads no other work).
app { name = "SceneExtensionsApp", root = "FeedViewController", sceneManifest = "configured" }

-- Calls the completion handler UIKit passes last, so that no stub leaves one waiting.
local function complete(...)
  local completion = select(select("#", ...), ...)
  if type(completion) == "function" then completion() end
end

-- AppDelegate.applicationDidEnterBackground(_:)
--   at Sources/App/AppDelegate+Background.swift:5
function AppDelegate.applicationDidEnterBackground(...)
  log("AppDelegate.applicationDidEnterBackground")
end

-- AppDelegate.application(_:didReceiveRemoteNotification:fetchCompletionHandler:)
--   at Sources/App/AppDelegate+Background.swift:9
function AppDelegate.didReceiveRemoteNotification(...)
  log("AppDelegate.didReceiveRemoteNotification")
  complete(...)
end

-- AppDelegate.application(_:open:options:)
--   at Sources/App/AppDelegate+Background.swift:14
function AppDelegate.openURL(...)
  log("AppDelegate.openURL")
  return true
end

-- AppDelegate.application(_:didFinishLaunchingWithOptions:)
--   at Sources/App/AppDelegate.swift:6
function AppDelegate.didFinishLaunchingWithOptions(...)
  log("AppDelegate.didFinishLaunchingWithOptions")
  -- the notification delegate is set at Sources/App/AppDelegate.swift:8
  UNUserNotificationCenter:setDelegate()
  return true
end

-- AppDelegate.application(_:configurationForConnecting:options:)
--   at Sources/App/AppDelegate.swift:13
function AppDelegate.configurationForConnecting(...)
  log("AppDelegate.configurationForConnecting")
end

-- AppDelegate.application(_:didDiscardSceneSessions:)
--   at Sources/App/AppDelegate.swift:19
function AppDelegate.didDiscardSceneSessions(...)
  log("AppDelegate.didDiscardSceneSessions")
end

-- SceneDelegate.scene(_:openURLContexts:)
--   at Sources/Scenes/SceneDelegate+Links.swift:4
function SceneDelegate.openURLContexts(...)
  log("SceneDelegate.openURLContexts")
end

-- SceneDelegate.scene(_:continue:)
--   at Sources/Scenes/SceneDelegate+Links.swift:8
function SceneDelegate.continueUserActivity(...)
  log("SceneDelegate.continueUserActivity")
end

-- SceneDelegate.scene(_:willConnectTo:options:)
--   at Sources/Scenes/SceneDelegate.swift:6
function SceneDelegate.willConnectTo(...)
  log("SceneDelegate.willConnectTo")
end

-- SceneDelegate.sceneDidBecomeActive(_:)
--   at Sources/Scenes/SceneDelegate.swift:14
function SceneDelegate.sceneDidBecomeActive(...)
  log("SceneDelegate.sceneDidBecomeActive")
end

-- SceneDelegate.sceneDidEnterBackground(_:)
--   at Sources/Scenes/SceneDelegate.swift:16
function SceneDelegate.sceneDidEnterBackground(...)
  log("SceneDelegate.sceneDidEnterBackground")
end

-- SceneDelegate.stateRestorationActivity(for:)
--   at Sources/Scenes/SceneDelegate.swift:20
function SceneDelegate.stateRestorationActivity(...)
  log("SceneDelegate.stateRestorationActivity")
end

-- AppDelegate.userNotificationCenter(_:willPresent:withCompletionHandler:)
--   at Sources/App/AppDelegate+Notifications.swift:4
function NotificationDelegate.willPresent(...)
  log("NotificationDelegate.willPresent")
  complete(...)
end

-- AppDelegate.userNotificationCenter(_:didReceive:withCompletionHandler:)
--   at Sources/App/AppDelegate+Notifications.swift:9
function NotificationDelegate.didReceive(...)
  log("NotificationDelegate.didReceive")
  complete(...)
end

controller "FeedViewController" {}
