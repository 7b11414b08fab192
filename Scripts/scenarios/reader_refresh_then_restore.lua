-- A real app's night (docs/model.md §16 and §17): the reader leaves an article open, goes to the
-- background and submits a refresh; the system runs the refresh in the suspended app, later
-- reclaims it for memory, runs the next refresh in a background launch that connects no scene,
-- and when the user opens the app the session brings the article back.
scenario { name = "reader: refresh in the background, then restore", ios = 17, ios_range = "15-26", scenes = true,
           app = "../apps/reader.lua" }

launch()
push("Article")
home()
expect_calls { "stateRestorationActivity", "sceneDidEnterBackground" }
expect_state("suspended")
advance(900)
bg_task("com.example.reader.refresh")
expect_calls { "BGTaskScheduler.launchHandler" }
expect_no_calls { "sceneWillEnterForeground" }
advance(5)
expect(stored("refreshes") == 1, "the first refresh downloaded the articles")
memory_pressure()
expect_terminated("jetsam")
advance(900)
bg_task("com.example.reader.refresh")
expect_calls { "didFinishLaunchingWithOptions", "BGTaskScheduler.launchHandler" }
expect_no_calls { "willConnectTo" }
advance(5)
expect(stored("refreshes") == 2, "the refresh the first one submitted ran after the kill too")
launch()
expect_calls { "willConnectTo", "sceneWillEnterForeground", "restoreInteractionStateWith", "sceneDidBecomeActive",
               "Article.viewDidAppear" }
expect(stored("restoredArticle") == 1, "the article that was open is open again")
