-- Screen lock while active, then unlock (docs/model.md §3, §12; T10, S37).
-- Lock: resign active, enter background. Protected data goes 10 s later.
scenario { name = "lock and unlock", ios = 12, scenes = false, app = "../apps/notes.lua" }

launch()
lock()
expect_calls { "applicationWillResignActive", "applicationDidEnterBackground" }
advance(15)
expect_state("suspended")
unlock()
expect_calls { "applicationWillEnterForeground", "applicationDidBecomeActive" }
expect_state("active")
