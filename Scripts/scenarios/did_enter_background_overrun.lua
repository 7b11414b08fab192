-- didEnterBackground blocking 6 s (docs/model.md §6; S9, S26): killed at 5 s by the watchdog.
-- The draft was stored before the kill, so it survives.
scenario { name = "didEnterBackground overrun", ios = 12, app = "../apps/overrun.lua" }

launch()
home()
expect_terminated("watchdog")
expect(stored("draft") ~= nil, "the draft stored before the kill survives")
