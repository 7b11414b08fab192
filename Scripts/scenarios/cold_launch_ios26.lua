-- Cold launch on iOS 26 (docs/model.md §8; S32): updateProperties() runs before layout.
scenario { name = "cold launch, iOS 26", ios = 26, ios_range = "26", app = "../apps/notes.lua" }

launch()
expect_calls { "viewWillAppear", "viewIsAppearing", "updateProperties", "viewWillLayoutSubviews", "viewDidAppear" }
expect_state("active")
