-- Handoff from another device (docs/model.md §15; S-coh, S-sc, S-swc): a killed scene app gets
-- only the activity type in its connection options, and scene(_:continue:) half a second after
-- it became active, once the activity's data has arrived; a running one gets willContinue and
-- continue before sceneDidBecomeActive.
scenario { name = "handoff", ios = 17, scenes = true, app = "../apps/inbox.lua" }

handoff("com.example.inbox.reading")
expect_calls { "willConnectTo", "sceneDidBecomeActive" }
expect_no_calls { "continueUserActivity" }
expect(stored("handoffType") == "com.example.inbox.reading", "the type reached the connection options")
advance(1)
expect_calls { "SceneDelegate.continueUserActivity" }
expect(stored("continued") == "com.example.inbox.reading", "the activity arrived")
home()
handoff("com.example.inbox.reading")
expect_calls { "sceneWillEnterForeground", "willContinueUserActivityWithType", "continueUserActivity", "sceneDidBecomeActive" }
