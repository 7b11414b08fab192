-- A background fetch launches a killed app into the background (docs/model.md §2; S3, S33, T8):
-- a sceneless app builds its window there (the root appears, unseen, not animated), then
-- applicationDidEnterBackground and the fetch, completed within 30 s; then suspended.
-- The user's tap later only brings it to the foreground.
scenario { name = "background fetch", ios = 12, scenes = false, app = "../apps/notes.lua" }

background_launch("fetch")
expect_calls { "init", "willFinishLaunchingWithOptions", "didFinishLaunchingWithOptions", "viewDidLoad",
               "viewWillAppear", "viewDidAppear", "applicationDidEnterBackground", "performFetchWithCompletionHandler" }
expect_no_calls { "applicationWillEnterForeground", "applicationDidBecomeActive" }
expect_state("background")
advance(5)
expect_state("suspended")
expect(stored("lastFetch") == "ok", "the fetch completed")
launch()
expect_calls { "applicationWillEnterForeground", "applicationDidBecomeActive" }
expect_no_calls { "viewDidLoad", "viewWillAppear", "viewDidAppear" }
