-- A background task that ends in time (docs/model.md §4; S6): the draft is saved, then the app suspends.
scenario { name = "background task ends in time", ios = 17, app = "../apps/notes.lua" }

launch()
home()
expect_state("suspended")
expect(stored("draft") ~= nil, "the draft was stored")
advance(60)
expect_no_calls { "expirationHandler" }
