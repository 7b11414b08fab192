-- An app still holding a lock on a database in a shared container when iOS would suspend it is
-- killed instead: 0xdead10cc, no callback (docs/model.md §14; S27, S72, T72). A debugger
-- attached turns the kill off (knob debuggerAttached).
scenario { name = "locked file kill", ios = 17, scenes = false, app = "../apps/journal.lua" }

launch()
home()
expect_calls { "applicationDidEnterBackground" }
expect_terminated("suspended_with_locked_file")
expect(stored("draft") == "dear diary", "what was stored before the kill survives")
launch()
expect_calls { "didFinishLaunchingWithOptions", "applicationDidBecomeActive" }
