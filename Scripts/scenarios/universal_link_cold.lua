-- A universal link launches a killed sceneless app (docs/model.md §15; T7, T-rec, S-rua): the
-- activity is in the launch options, then willContinueUserActivityWithType and
-- continueUserActivity, whose restoration handler restores the message list, before
-- applicationDidBecomeActive.
scenario { name = "universal link, cold", ios = 17, scenes = false, app = "../apps/inbox.lua" }

universal_link("https://inbox.example.com/message/42")
expect_calls { "didFinishLaunchingWithOptions", "willContinueUserActivityWithType", "continueUserActivity",
               "MessageList.restoreUserActivityState", "applicationDidBecomeActive" }
expect_no_calls { "openURL" }
expect(stored("launchActivity") == "NSUserActivityTypeBrowsingWeb", "the activity was in the launch options")
expect(stored("continued") == "https://inbox.example.com/message/42", "continueUserActivity got the link")
expect(stored("restored") == "MessageList#1", "the restoration handler reached the list")
