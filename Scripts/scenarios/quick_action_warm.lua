-- A Home Screen quick action for a scene app in the background (docs/model.md §15; S-wpa,
-- T-ns): windowScene(_:performActionFor:) between sceneWillEnterForeground and
-- sceneDidBecomeActive, never the app delegate's method.
scenario { name = "quick action, warm", ios = 17, scenes = true, app = "../apps/inbox.lua" }

launch()
expect_state("active")
home()
quick_action("compose")
expect_calls { "sceneWillEnterForeground", "SceneDelegate.performActionForShortcutItem", "sceneDidBecomeActive" }
expect_no_calls { "willConnectTo" }
expect(stored("shortcut") == "compose", "the item reached the scene delegate")
