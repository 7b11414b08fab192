-- Memory pressure reclaims a suspended app silently (docs/model.md §6; S5, S25). The next launch is
-- cold but reuses the scene session: no configurationForConnecting (T33).
scenario { name = "memory pressure", ios = 17, scenes = true, app = "../apps/notes.lua" }

launch()
home()
memory_pressure()
expect_terminated("jetsam")
launch()
expect_calls { "didFinishLaunchingWithOptions", "willConnectTo", "viewDidLoad" }
expect_no_calls { "configurationForConnecting" }
expect(stored("draft") ~= nil, "stored data survived the kill")
