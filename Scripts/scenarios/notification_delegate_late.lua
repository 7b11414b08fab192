-- A delegate set after launch, once the app is active, misses the tap that launched it
-- (docs/model.md §15; T-dc); a later tap reaches it.
scenario { name = "notification delegate set too late", ios = 17, scenes = true, app = "../apps/inbox_late_delegate.lua" }

tap_notification { id = "message-9" }
expect_calls { "sceneWillEnterForeground", "sceneDidBecomeActive" }
expect_no_calls { "didReceive" }
expect(stored("response") == nil, "the launching response was dropped")
expect_diagnostic("notification_delegate_late")
home()
tap_notification { id = "message-10" }
expect_calls { "sceneWillEnterForeground", "didReceive", "sceneDidBecomeActive" }
expect(stored("response") == "message-10:default", "the delegate, set by now, got the second tap")
