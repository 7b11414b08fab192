-- A background fetch launches a killed app into the background (docs/model.md §2; S3, S33):
-- no UI, and the completion handler called within 30 s; then suspended.
scenario { name = "background fetch", ios = 12, scenes = false, app = "../apps/notes.lua" }

background_launch("fetch")
expect_calls { "willFinishLaunchingWithOptions", "didFinishLaunchingWithOptions",
               "applicationDidEnterBackground", "performFetchWithCompletionHandler" }
expect_no_calls { "applicationDidBecomeActive", "viewDidLoad" }
expect_state("background")
advance(5)
expect_state("suspended")
expect(stored("lastFetch") == "ok", "the fetch completed")
launch()
expect_calls { "applicationWillEnterForeground", "viewDidLoad", "applicationDidBecomeActive", "viewDidAppear" }
