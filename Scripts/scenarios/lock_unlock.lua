-- Screen lock while active, then unlock (docs/model.md §3, §12; T10, S37).
-- Lock: resign active, enter background. Protected data goes 10 s later, while the app is
-- suspended; its return is queued and delivered first at unlock (App Programming Guide).
scenario { name = "lock and unlock", ios = 12, scenes = false, app = "../apps/notes.lua" }

launch()
lock()
expect_calls { "applicationWillResignActive", "applicationDidEnterBackground" }
advance(15)
expect_state("suspended")
unlock()
expect_calls { "applicationProtectedDataDidBecomeAvailable", "applicationWillEnterForeground", "applicationDidBecomeActive" }
expect_state("active")
