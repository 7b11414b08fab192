-- View-controller restoration in a sceneless app (docs/model.md §17; T7, T103, S105, S106,
-- S108): on iOS 12 the old should-save/should-restore pair runs; after Home each controller
-- with a restorationIdentifier encodes its state; after jetsam the launch restores the list and
-- the article between willFinish and didFinish — both controllers are made first, then their
-- views load, then each decodes its state — and the article is on screen again.
scenario { name = "legacy restoration", ios = 12, app = "../apps/reader.lua", ios_range = "12" }

launch()
push("Article")
home()
expect_calls { "applicationDidEnterBackground", "shouldSaveApplicationState", "willEncodeRestorableStateWith",
               "ArticleList.encodeRestorableState", "Article.encodeRestorableState" }
memory_pressure()
launch()
expect_calls { "willFinishLaunchingWithOptions", "shouldRestoreApplicationState",
               "viewControllerWithRestorationIdentifierPath", "viewControllerWithRestorationIdentifierPath",
               "ArticleList.viewDidLoad", "Article.viewDidLoad",
               "ArticleList.decodeRestorableState", "Article.decodeRestorableState",
               "didDecodeRestorableStateWith", "ArticleList.applicationFinishedRestoringState",
               "Article.applicationFinishedRestoringState", "didFinishLaunchingWithOptions", "Article.viewDidAppear" }
expect(stored("restoredArticle") == 1, "the article is back")
