-- Push and pop on a navigation stack (docs/model.md §8; T19, T20, T13).
scenario { name = "push and pop", ios = 17, app = "../apps/notes.lua" }

launch()
expect_state("active")
push("NoteEditor")
expect_calls { "NoteEditor.viewDidLoad", "NoteList.viewWillDisappear", "NoteEditor.viewWillAppear",
               "NoteList.viewDidDisappear", "NoteEditor.viewDidAppear" }
pop()
expect_calls { "NoteEditor.viewWillDisappear", "NoteList.viewWillAppear", "NoteEditor.viewDidDisappear",
               "NoteList.viewDidAppear" }
