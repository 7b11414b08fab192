-- Cold launch on iOS 12 (docs/model.md §2; S2, T7, T8): an app-delegate-only app.
-- The root appears around applicationDidBecomeActive; no viewIsAppearing before iOS 13.
scenario { name = "cold launch, iOS 12", ios = 12, scenes = false, ios_range = "12", app = "../apps/notes.lua" }

launch()
expect_calls {
  "willFinishLaunchingWithOptions", "didFinishLaunchingWithOptions", "viewDidLoad", "viewWillAppear",
  "viewWillLayoutSubviews", "viewDidLayoutSubviews", "applicationDidBecomeActive", "viewDidAppear",
}
expect_no_calls { "applicationWillEnterForeground" }
expect_state("active")
