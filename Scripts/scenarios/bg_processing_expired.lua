-- A BGTaskScheduler processing task (docs/model.md §16; S114, S116, W1): the feed app's cache
-- clean-up requires external power, runs in the suspended app once it is plugged in, and is
-- longer than the 300 s a processing task gets: its expiration handler cancels it and completes
-- the task unsuccessfully, 5 s before the end, and the app is suspended, never killed.
scenario { name = "processing task expired", ios = 17, ios_range = "13-26", app = "../apps/feed.lua" }

launch()
home()
power(true)
bg_task("com.example.feed.cleanup")
expect_calls { "BGTaskScheduler#com.example.feed.cleanup.launchHandler" }
advance(294)
expect_no_calls { "BGTask.expirationHandler" }
expect_state("background")
advance(2)
expect_calls { "BGTask#com.example.feed.cleanup.expirationHandler" }
expect_state("suspended")
expect(stored("cleanup") == "interrupted", "the expiration handler cancelled the clean-up")
