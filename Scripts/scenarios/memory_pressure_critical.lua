-- Critical memory pressure reclaims an app still running in the background (here an upload in a
-- background task), with no callback at all; plain memory pressure leaves it alone. The scene
-- session survives, so the next launch needs no configurationForConnecting (docs/model.md §14;
-- S25, S5, T33).
scenario { name = "critical memory pressure", ios = 17, scenes = true, app = "../apps/expiring.lua" }

launch()
home()
memory_pressure()
expect_state("background")
memory_pressure("critical")
expect_terminated("jetsam")
expect_no_calls { "sceneDidDisconnect", "applicationWillTerminate", "expirationHandler" }
launch()
expect_calls { "didFinishLaunchingWithOptions", "willConnectTo" }
expect_no_calls { "configurationForConnecting" }
