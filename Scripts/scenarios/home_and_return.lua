-- Home, a minute away, and back (docs/model.md §3): no appearance callbacks,
-- willEnterForeground always followed by didBecomeActive.
scenario { name = "home and return", ios = 17, scenes = true, app = "../apps/notes.lua" }

launch()
home()
expect_calls { "sceneWillResignActive", "sceneDidEnterBackground" }
advance(60)
expect_state("suspended")
launch()
expect_calls { "sceneWillEnterForeground", "sceneDidBecomeActive" }
expect_no_calls { "viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear" }
expect_state("active")
expect(stored("draft") ~= nil, "the draft was saved while in the background")
