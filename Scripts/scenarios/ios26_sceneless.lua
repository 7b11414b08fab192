-- An app-delegate-only app on iOS 26 still launches, with a note that the UIScene
-- life cycle will soon be required (S30, S31).
scenario { name = "iOS 26 without scenes", ios = 26, scenes = false, app = "../apps/notes.lua" }

launch()
expect_calls { "didFinishLaunchingWithOptions", "applicationDidBecomeActive" }
expect_state("active")
