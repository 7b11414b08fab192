-- Written by `lifesim scan --emit-app` from the Swift app (docs/scan.md). Each handler logs its call and
-- cites the Swift it mirrors (paths from the folder scanned); fill in the behaviour that matters.
--
-- Lowered from the Swift:
--   a stub per delegate method, which logs its call
--   1 window made from a frame (shown only without scenes)
--   1 condition the scan cannot decide, as `choose(site)`: the run's seed decides, or --choose SITE=true|false
-- Methods: the effects of 1 of 1 delegate method with lifecycle effects (100 %); 6 more only log their call.
-- Not read: what the handlers do beyond these effects (the scan reads no other work).
app { name = "ConditionalApp", root = "CatalystRootController" }

-- AppDelegate.application(_:didFinishLaunchingWithOptions:)
--   at AppDelegate.swift:7
function AppDelegate.didFinishLaunchingWithOptions(...)
  log("AppDelegate.didFinishLaunchingWithOptions")
  -- makes a window from a frame, key and visible, at AppDelegate.swift:10
  -- under #if targetEnvironment(macCatalyst), which the build decides: the run decides it (--choose SITE=true|false)
  if choose("AppDelegate.swift:10") then
    UIApplication.shared:frameWindow("AppDelegate.swift:10")
  end
  return true
end

-- AppDelegate.applicationDidBecomeActive(_:) (#if DEBUG)
--   at AppDelegate.swift:18
-- AppDelegate.applicationDidBecomeActive(_:) (#if !(DEBUG) && BETA)
--   at AppDelegate.swift:22
function AppDelegate.applicationDidBecomeActive(...)
  log("AppDelegate.applicationDidBecomeActive")
end

-- AppDelegate.applicationSignificantTimeChange(_:) (#if !(DEBUG) && !(BETA))
--   at AppDelegate.swift:26
function AppDelegate.applicationSignificantTimeChange(...)
  log("AppDelegate.applicationSignificantTimeChange")
end

-- AppDelegate.application(_:configurationForConnecting:options:)
--   at AppDelegate.swift:29
function AppDelegate.configurationForConnecting(...)
  log("AppDelegate.configurationForConnecting")
end

-- SceneDelegate.sceneWillEnterForeground(_:)
--   at Broken.swift:4
function SceneDelegate.sceneWillEnterForeground(...)
  log("SceneDelegate.sceneWillEnterForeground")
end

-- SceneDelegate.sceneDidDisconnect(_:)
--   at Broken.swift:8
function SceneDelegate.sceneDidDisconnect(...)
  log("SceneDelegate.sceneDidDisconnect")
end

-- SceneDelegate.sceneWillResignActive(_:)
--   at SceneDelegate.swift:6
function SceneDelegate.sceneWillResignActive(...)
  log("SceneDelegate.sceneWillResignActive")
end

controller "CatalystRootController" {}
