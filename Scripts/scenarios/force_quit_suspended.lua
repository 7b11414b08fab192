-- Force quit of a suspended app: no callbacks at all (docs/model.md §6; T27, T28). The session is
-- discarded, so the next launch asks for a configuration again (S19).
scenario { name = "force quit while suspended", ios = 17, scenes = true, app = "../apps/notes.lua" }

launch()
home()
advance(10)
force_quit()
expect_no_calls { "applicationWillTerminate", "sceneDidDisconnect" }
expect_terminated("user")
launch()
expect_calls { "didDiscardSceneSessions", "configurationForConnecting", "willConnectTo" }
