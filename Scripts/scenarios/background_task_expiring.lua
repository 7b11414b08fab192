-- A background task ended by its expiration handler (docs/model.md §4; S7, F1): the handler runs
-- 5 s before the 30 s allowance ends; the app is suspended, not killed.
scenario { name = "background task expiring", ios = 17, ios_range = "13-26", app = "../apps/expiring.lua" }

launch()
home()
expect_state("background")
advance(24)
expect_no_calls { "expirationHandler" }
advance(2)
expect_calls { "expirationHandler" }
expect_state("suspended")
expect(stored("upload") == "paused at expiration", "the upload was paused")
