-- A deep link into a killed scene app (docs/model.md §2; S36, T34): the URL arrives in
-- willConnectTo's options, not in openURLContexts.
scenario { name = "open URL, cold", ios = 17, scenes = true, app = "../apps/notes.lua" }

open_url("notes://note/42")
expect_calls { "willConnectTo", "sceneDidBecomeActive" }
expect_no_calls { "openURLContexts" }
expect(stored("openedURL") == "notes://note/42", "the URL reached the app")
