-- A quick action launches a sceneless app that handles it in didFinishLaunching and returns
-- false (docs/model.md §15; S-pa, S-appchat, T-so357): performActionFor does not follow.
scenario { name = "quick action, cold, handled at launch", ios = 17, scenes = false, app = "../apps/inbox_shortcut_at_launch.lua" }

quick_action("compose")
expect_calls { "didFinishLaunchingWithOptions", "applicationDidBecomeActive" }
expect_no_calls { "performActionForShortcutItem" }
expect(stored("shortcut") == "compose", "didFinishLaunching read launchOptions.shortcutItem")
