-- iOS 15+ prewarming (docs/model.md §2; S2, F4): the process exists, suspended, and runs no app code
-- until the user taps; then the whole launch runs.
scenario { name = "prewarm", ios = 17, scenes = true, ios_range = "15-26", app = "../apps/notes.lua" }

prewarm()
expect_state("suspended")
expect_no_calls { "didFinishLaunchingWithOptions" }
advance(1800)
launch()
expect_calls { "willFinishLaunchingWithOptions", "didFinishLaunchingWithOptions", "willConnectTo", "sceneDidBecomeActive" }
expect_state("active")
