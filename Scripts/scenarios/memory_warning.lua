-- A memory warning (docs/model.md §11; S24, T19): the app delegate, then every loaded controller,
-- hidden ones included, then the notification.
scenario { name = "memory warning", ios = 17, app = "../apps/notes.lua" }

launch()
expect_state("active")
push("NoteEditor")
memory_warning()
expect_calls { "applicationDidReceiveMemoryWarning", "NoteList#1.didReceiveMemoryWarning", "NoteEditor#1.didReceiveMemoryWarning" }
expect_state("active")
