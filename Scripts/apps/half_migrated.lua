-- A notes app midway through its move to scenes: the scene delegate is in, but the draft is
-- still saved, and the list refreshed, by app-delegate methods. With scenes UIKit never calls
-- them (handler_never_called: the draft is lost); built without scenes against the iOS 26 SDK,
-- the activation method is deprecated (deprecated_in_sdk). Its deployment target is iOS 13, the
-- default, so it has no reason to keep them.
app { name = "Drafts", root = "Editor" }

function AppDelegate.applicationDidBecomeActive(application) store("refreshed", true) end
function AppDelegate.applicationDidEnterBackground(application) store("draft", "saved") end
function SceneDelegate.sceneWillEnterForeground(scene) end

controller "Editor" {}
