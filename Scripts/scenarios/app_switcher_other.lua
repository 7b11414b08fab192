-- Open the app switcher, choose another app (docs/model.md §3; T11): background, no second resign.
scenario { name = "app switcher, other app", ios = 12, scenes = false, app = "../apps/notes.lua" }

launch()
expect_state("active")
app_switcher()
switch_to("other")
expect_calls { "applicationWillResignActive", "applicationDidEnterBackground" }
expect_state("suspended")
