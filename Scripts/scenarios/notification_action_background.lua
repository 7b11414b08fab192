-- An action on a notification that does not open the app ("Archive"): the app runs in the
-- background with no scene, does its work and calls the completion within 30 s
-- (docs/model.md §15; S-unr).
scenario { name = "notification action in the background", ios = 17, scenes = true, app = "../apps/inbox.lua" }

tap_notification { id = "message-8", action = "archive" }
expect_calls { "didFinishLaunchingWithOptions", "didReceive" }
expect_no_calls { "willConnectTo", "sceneWillEnterForeground", "sceneDidBecomeActive" }
expect(stored("response") == "message-8:archive", "the action reached the delegate")
expect_state("suspended")
