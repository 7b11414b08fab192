-- Significant time changes reaching a suspended app are queued and coalesced, then delivered,
-- notification first, before the foreground callbacks (docs/model.md §14; S70, S71).
scenario { name = "time change while suspended", ios = 17, scenes = true, app = "../apps/ledger.lua" }

launch()
time_change()
expect_calls { "applicationSignificantTimeChange" }
home()
time_change()
time_change()
expect_no_calls { "applicationSignificantTimeChange" }
launch()
expect_calls { "applicationSignificantTimeChange", "sceneWillEnterForeground", "sceneDidBecomeActive" }
expect(stored("rollovers") == 2, "one delivery while running, one for the two queued changes")
