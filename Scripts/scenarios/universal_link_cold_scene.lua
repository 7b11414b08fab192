-- A universal link launches a killed scene app (docs/model.md §15; S-coua): the activity is
-- only in willConnectTo's options.userActivities; no scene(_:continue:) follows.
scenario { name = "universal link, cold, scene app", ios = 17, scenes = true, app = "../apps/inbox.lua" }

universal_link("https://inbox.example.com/message/42")
expect_calls { "willConnectTo", "sceneDidBecomeActive" }
expect_no_calls { "continueUserActivity", "willContinueUserActivityWithType" }
expect(stored("link") == "https://inbox.example.com/message/42", "the link reached the connection options")
