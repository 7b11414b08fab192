-- Background URL session downloads (docs/model.md §16; S133, S134): the feed app starts a 20 s
-- transfer at each entry to the background. Finished while the app is suspended, it is resumed
-- for handleEventsForBackgroundURLSession, the task's didCompleteWithError and didFinishEvents,
-- where it calls the stored completion and is suspended again; finished after the system
-- reclaimed it, the app is launched in the background for them, with no scene.
scenario { name = "background transfer", ios = 17, ios_range = "13-26", app = "../apps/feed.lua" }

launch()
home()
expect_state("suspended")
advance(20)
transfer_done("com.example.feed.images")
expect_calls { "handleEventsForBackgroundURLSession", "didCompleteWithError", "didFinishEvents" }
expect_no_calls { "willFinishLaunchingWithOptions", "sceneWillEnterForeground" }
expect_state("suspended")
expect(stored("images") == "downloaded", "the download was collected")
launch()
home()
memory_pressure()
expect_state("not_running")
advance(20)
transfer_done("com.example.feed.images")
expect_calls { "didFinishLaunchingWithOptions", "handleEventsForBackgroundURLSession", "URLSessionDelegate.didCompleteWithError" }
expect_no_calls { "willConnectTo" }
expect_state("suspended")
