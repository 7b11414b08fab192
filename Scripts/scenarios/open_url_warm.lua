-- A deep link into a backgrounded sceneless app (docs/model.md §3; T7):
-- willEnterForeground → application(_:open:options:) → didBecomeActive.
scenario { name = "open URL, warm", ios = 12, scenes = false, app = "../apps/notes.lua" }

launch()
home()
expect_state("suspended")
open_url("notes://note/7")
expect_calls { "applicationWillEnterForeground", "openURL", "applicationDidBecomeActive" }
expect(stored("openedURL") == "notes://note/7", "the URL reached the app")
