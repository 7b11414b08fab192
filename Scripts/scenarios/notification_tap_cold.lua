-- A tap on a notification launches a killed scene app (docs/model.md §15; T-oh, T-df): the
-- response is in willConnectTo's options, and didReceive comes while the scene is still
-- foregroundInactive, between sceneWillEnterForeground and sceneDidBecomeActive.
scenario { name = "notification tap, cold", ios = 17, scenes = true, app = "../apps/inbox.lua" }

tap_notification { id = "message-7" }
expect_calls { "willConnectTo", "sceneWillEnterForeground", "didReceive", "sceneDidBecomeActive" }
expect_no_calls { "willPresent", "didReceiveRemoteNotification" }
expect(stored("connectedWithResponse") == "message-7", "the response reached the connection options")
expect(stored("response") == "message-7:default", "didReceive got the plain tap")
expect_state("active")
