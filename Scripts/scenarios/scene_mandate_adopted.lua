-- The app of scene_mandate.lua with scenes adopted (a scene manifest): built with the
-- iOS 27 SDK, it launches on iOS 27 like any scene app (docs/model.md §13, the scene mandate).
scenario { name = "scene mandate adopted", ios = 27, ios_range = "27", scenes = true, app = "../apps/legacy_sdk27.lua" }

launch()
expect_calls { "didFinishLaunchingWithOptions", "willConnectTo", "viewDidLoad", "sceneDidBecomeActive" }
expect_state("active")
