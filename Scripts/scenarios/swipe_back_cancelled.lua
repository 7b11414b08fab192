-- An interactive swipe-back that is cancelled (docs/model.md §8; T13, T12): the back controller
-- gets willAppear then disappears; the top controller reappears. No didDisappear for it.
scenario { name = "swipe back cancelled", ios = 17, app = "../apps/notes.lua" }

launch()
expect_state("active")
push("NoteEditor")
expect_calls { "NoteEditor.viewDidAppear" }
swipe_back { cancel = true }
expect_calls { "NoteEditor.viewWillDisappear", "NoteList.viewWillAppear", "NoteList.viewWillDisappear",
               "NoteList.viewDidDisappear", "NoteEditor.viewWillAppear", "NoteEditor.viewDidAppear" }
expect_no_calls { "NoteEditor.viewDidDisappear" }
