-- State restoration after a system kill (docs/model.md §17; S101, S102, S103, D1, T33): the
-- scene is asked for its restoration activity on its way to the background; memory pressure
-- reclaims the suspended app; the next launch reuses the session, whose activity reaches
-- willConnectTo, and from iOS 15 restoreInteractionStateWith after sceneWillEnterForeground.
scenario { name = "restoration after jetsam", ios = 17, scenes = true, app = "../apps/reader.lua", ios_range = "15-26" }

launch()
push("Article")
push("Article")
home()
expect_calls { "sceneWillResignActive", "stateRestorationActivity", "sceneDidEnterBackground" }
memory_pressure()
expect_terminated("jetsam")
launch()
expect_calls { "willConnectTo", "sceneWillEnterForeground", "restoreInteractionStateWith", "sceneDidBecomeActive",
               "Article.viewDidAppear" }
expect_no_calls { "configurationForConnecting" }
expect(stored("restoredArticle") == 2, "the article that was open (2) is open again")
expect(stored("restoredOffset") == 200, "and scrolled where the reader left it")
