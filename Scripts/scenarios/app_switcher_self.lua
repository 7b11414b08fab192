-- Open the app switcher, choose the same app (docs/model.md §3; T11): no willEnterForeground.
scenario { name = "app switcher, same app", ios = 12, scenes = false, app = "../apps/notes.lua" }

launch()
expect_state("active")
app_switcher()
switch_to("self")
expect_calls { "applicationWillResignActive", "applicationDidBecomeActive" }
expect_no_calls { "applicationWillEnterForeground", "applicationDidEnterBackground" }
