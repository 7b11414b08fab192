-- An incoming call, answered (docs/model.md §7): the call app takes over; the app enters background.
scenario { name = "call answered", ios = 12, scenes = false, app = "../apps/notes.lua" }

launch()
expect_state("active")
interrupt("call")
end_interrupt("answered")
expect_calls { "applicationWillResignActive", "applicationDidEnterBackground" }
expect_state("suspended")
