-- Force quit from the app switcher while inactive (docs/model.md §6; F3, T27):
-- sceneDidDisconnect, then applicationWillTerminate.
scenario { name = "force quit while inactive", ios = 17, scenes = true, app = "../apps/notes.lua" }

launch()
expect_state("active")
app_switcher()
force_quit()
expect_calls { "sceneDidDisconnect", "applicationWillTerminate" }
expect_terminated("user")
