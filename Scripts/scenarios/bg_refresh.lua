-- A BGTaskScheduler refresh (docs/model.md §16; S112, S113, S118, W1): the feed app submits it
-- when it enters the background; 15 minutes later the system runs it, first in the suspended
-- process, then, after the system reclaimed the app, in a background launch that connects no
-- scene. The user's launch afterwards connects the scene as after any background launch.
scenario { name = "background refresh", ios = 17, ios_range = "13-26", scenes = true, app = "../apps/feed.lua" }

launch()
home()
expect_state("suspended")
advance(900)
bg_task("com.example.feed.refresh")
expect_calls { "launchHandler" }
expect_no_calls { "sceneWillEnterForeground", "willConnectTo" }
advance(5)
expect_state("suspended")
expect(stored("lastRefresh") == 902, "the refresh completed after its 2 s download")
memory_pressure()
advance(900)
bg_task("com.example.feed.refresh")
expect_calls { "willFinishLaunchingWithOptions", "didFinishLaunchingWithOptions", "BGTaskScheduler.launchHandler" }
expect_no_calls { "willConnectTo", "sceneWillEnterForeground", "sceneDidBecomeActive" }
advance(5)
expect_state("suspended")
launch()
expect_calls { "willConnectTo", "sceneWillEnterForeground", "sceneDidBecomeActive" }
expect_no_calls { "willFinishLaunchingWithOptions", "configurationForConnecting" }
