-- A force quit (docs/model.md §16; F111, W2, F110, F108): the refresh request waits until the
-- user opens the app again, the processing request still runs — from iOS 18 by default; the
-- knob processingRunsAfterForceQuit (false before 18) is set here so that every profile shows
-- it — and the background session's transfer is cancelled: the app hears of it (error −999)
-- when the user opens it.
scenario { name = "BGTasks after a force quit", ios = 17, ios_range = "13-26", scenes = true, app = "../apps/feed.lua",
           knobs = { processingRunsAfterForceQuit = true } }

launch()
home()
app_switcher()
force_quit()
advance(900)
bg_task("com.example.feed.refresh")
expect_no_calls { "launchHandler" }
expect_state("not_running")
power(true)
bg_task("com.example.feed.cleanup")
expect_calls { "didFinishLaunchingWithOptions", "BGTaskScheduler#com.example.feed.cleanup.launchHandler" }
launch()
expect_calls { "sceneDidBecomeActive", "didCompleteWithError" }
expect(stored("images") == "failed -999", "the cancelled download failed with -999")
