-- A refresh whose expiration handler does not complete the task (docs/model.md §16; S115, S27):
-- the handler runs 25 s into the task, and 1 s later the system kills the app (0x2182bad2).
scenario { name = "BGTask never completed", ios = 17, ios_range = "13-26", app = "../apps/feed_forgetful.lua" }

launch()
home()
advance(900)
bg_task("com.example.feed.refresh")
expect_calls { "launchHandler" }
advance(25)
expect_calls { "BGTask.expirationHandler" }
expect_state("background")
advance(1)
expect_terminated("background_task_expired")
