-- After a reboot the device is locked and protected data is unavailable until the first unlock
-- (docs/model.md §14; F71, F72, F73, S37). A silent push launches the app in the background: it
-- cannot read or write its session. The first unlock opens nothing; the suspended app hears of
-- the protected data when it next comes to the foreground.
scenario { name = "reboot and first unlock", ios = 17, scenes = true, app = "../apps/ledger.lua" }

launch()
home()
reboot()
expect_terminated("reboot")
background_launch("push")
expect_calls { "didFinishLaunchingWithOptions", "didReceiveRemoteNotification" }
expect(stored("pushSawSession") == false, "the session is unreadable before the first unlock")
expect(stored("pushWroteSession") == false, "store to an untilFirstUnlock key fails before the first unlock")
expect(stored("session") == "s-1", "the session written before the reboot is still on disk")
unlock()
expect_no_calls { "applicationProtectedDataDidBecomeAvailable", "willConnectTo" }
expect_state("suspended")
launch()
expect_calls { "applicationProtectedDataDidBecomeAvailable", "willConnectTo", "sceneDidBecomeActive" }
expect(stored("protectedDataBack") == true, "isProtectedDataAvailable is true again")
