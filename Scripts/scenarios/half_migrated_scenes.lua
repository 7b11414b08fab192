-- App-delegate methods a scene app never hears (docs/lua-api.md, "Diagnostics"): the run says
-- so at launch, once per handler, naming the scene delegate's method that replaces each.
scenario { name = "half-migrated app with scenes", ios = 17, scenes = true, ios_range = "13-26",
           app = "../apps/half_migrated.lua" }

launch()
expect_diagnostic("handler_never_called")
home()
expect_state("suspended")
expect(stored("draft") == nil, "the draft the app delegate saves is never saved")
expect(stored("refreshed") == nil, "the refresh on activation never ran")
