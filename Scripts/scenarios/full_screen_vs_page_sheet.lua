-- fullScreen removes the presenter's view; a pageSheet leaves it (docs/model.md §9; T14, T15, T16).
scenario { name = "fullScreen vs pageSheet", ios = 17, ios_range = "13-26", app = "../apps/notes.lua" }

launch()
expect_state("active")
present("Settings", { style = "fullScreen" })
expect_calls { "NoteList.viewWillDisappear", "Settings.viewWillAppear", "Settings.viewDidAppear", "NoteList.viewDidDisappear" }
dismiss()
expect_calls { "Settings.viewWillDisappear", "NoteList.viewWillAppear", "NoteList.viewDidAppear", "Settings.viewDidDisappear" }
present("Settings")  -- iOS 13+: pageSheet
expect_calls { "Settings.viewWillAppear", "Settings.viewDidAppear" }
expect_no_calls { "NoteList.viewWillDisappear", "NoteList.viewDidDisappear" }
dismiss()
expect_no_calls { "NoteList.viewWillAppear", "NoteList.viewDidAppear" }
