-- Cold launch from the home screen (docs/model.md §2): UIKit's launch sequence,
-- with the root view controller appearing around didBecomeActive.
scenario { name = "cold launch", ios = 17, scenes = true, app = "../apps/notes.lua" }

launch()
expect_calls {
  "willFinishLaunchingWithOptions", "didFinishLaunchingWithOptions",
  "configurationForConnecting", "willConnectTo",
  "viewDidLoad", "viewWillAppear", "viewIsAppearing",
  "sceneWillEnterForeground", "sceneDidBecomeActive", "viewDidAppear",
}
expect_state("active")
