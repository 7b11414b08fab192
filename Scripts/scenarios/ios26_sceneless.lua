-- An app-delegate-only app on iOS 26 still launches, with a note that the UIScene
-- life cycle will soon be required (S30, S31), on iOS 26 and on iOS 27 for an app built with
-- the iOS 26 SDK: a diagnostic, scene_lifecycle_required.
scenario { name = "iOS 26 without scenes", ios = 26, ios_range = "26-27", scenes = false, app = "../apps/notes.lua" }

launch()
expect_calls { "didFinishLaunchingWithOptions", "applicationDidBecomeActive" }
expect_state("active")
expect_diagnostic("scene_lifecycle_required")
