-- Written by `lifesim scan --emit-app` from the Swift app (docs/scan.md). Each handler logs its call and
-- cites the Swift it mirrors (paths from the folder scanned); fill in the behaviour that matters.
--
-- Lowered from the Swift:
--   a stub per delegate method, which logs its call
-- Methods: no lifecycle effect: none of the 7 delegate methods has one the scan reads.
-- Not read: what the handlers do beyond these effects (the scan reads no other work).
app { name = "ConditionalApp", root = "CatalystRootController" }

-- AppDelegate.application(_:didFinishLaunchingWithOptions:)
--   at AppDelegate.swift:7
function AppDelegate.didFinishLaunchingWithOptions(...)
  log("AppDelegate.didFinishLaunchingWithOptions")
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
