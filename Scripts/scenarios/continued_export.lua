-- iOS 26's continued processing task (docs/model.md §16, docs/cookbook.md "An export that
-- survives going home"): the user taps Export, goes home at once, and the export runs to its
-- end in the background with its progress on a Live Activity, the app kept running until it
-- completes; a second export, cancelled by the user from the Live Activity, stops through the
-- expiration handler.
scenario { name = "continued export", ios = 26, ios_range = "26-27", scenes = true, app = "../apps/exporter.lua" }

launch()
act("export")
expect_calls { "BGTaskScheduler#com.example.exporter.export.1.launchHandler" }
expect(stored("submitted") == "com.example.exporter.export.1", "the export was submitted from the foreground")
home()
expect_state("background")
advance(60)
expect(stored("export") == "done", "the export ran to its end in the background")
expect_state("suspended")
launch()
act("export")
home()
advance(15)
cancel_task("com.example.exporter.export.2")
expect_calls { "BGTask#com.example.exporter.export.2.expirationHandler" }
expect(stored("export") == "cancelled at 1/6", "the user's cancel stopped the export")
expect_state("suspended")
