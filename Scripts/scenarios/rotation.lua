-- Rotation (docs/model.md §10; S21, T-sd): traits, size, trait change, then layout.
scenario { name = "rotation", ios = 17, scenes = true, app = "../apps/notes.lua" }

launch()
expect_state("active")
rotate("landscape")
expect_calls { "willTransitionToTraitCollection", "viewWillTransitionToSize", "traitCollectionDidChange",
               "viewWillLayoutSubviews", "viewDidLayoutSubviews" }
home()
rotate("portrait")
launch()
expect_calls { "willTransitionToTraitCollection", "sceneWillEnterForeground", "sceneDidBecomeActive" }
