-- A sheet swiped down but not dismissed (docs/model.md §9; T15): it disappears and reappears.
scenario { name = "sheet swipe-down cancelled", ios = 17, ios_range = "13-26", app = "../apps/notes.lua" }

launch()
expect_state("active")
present("Settings", { style = "pageSheet" })
expect_calls { "Settings.viewDidAppear" }
swipe_down { cancel = true }
expect_calls { "Settings.viewWillDisappear", "Settings.viewWillAppear", "Settings.viewIsAppearing", "Settings.viewDidAppear" }
swipe_down {}
expect_calls { "Settings.viewWillDisappear", "Settings.viewDidDisappear" }
