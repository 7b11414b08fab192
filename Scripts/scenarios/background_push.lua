-- A silent push wakes a suspended scene app (docs/model.md §2): the handler runs, no scene
-- callbacks; after a force quit, pushes are no longer delivered (S33).
scenario { name = "background push", ios = 17, scenes = true, app = "../apps/notes.lua" }

launch()
home()
expect_calls { "sceneDidEnterBackground" }
background_launch("push")
expect_calls { "didReceiveRemoteNotification" }
expect_no_calls { "sceneWillEnterForeground" }
expect_state("suspended")
force_quit()
background_launch("push")
expect_state("not_running")
expect(stored("pushes") == 1, "only the first push was delivered")
