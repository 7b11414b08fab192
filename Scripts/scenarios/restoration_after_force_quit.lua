-- A force quit discards the scene session and its restoration activity (docs/model.md §17;
-- S104, S109, S19): the next launch makes a new session, willConnectTo finds no activity, and
-- the reader starts on the list.
scenario { name = "restoration after force quit", ios = 17, scenes = true, app = "../apps/reader.lua", ios_range = "13-26" }

launch()
push("Article")
home()
expect_calls { "stateRestorationActivity" }
force_quit()
expect_terminated("user")
launch()
expect_calls { "didDiscardSceneSessions", "configurationForConnecting", "willConnectTo", "sceneDidBecomeActive" }
expect_no_calls { "Article.viewDidLoad" }
expect(stored("restoredArticle") == nil and stored("restoredOffset") == nil, "nothing was restored")
