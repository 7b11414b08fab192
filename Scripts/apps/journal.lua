-- A journal whose SQLite database lives in an app-group container, shared with its widget. Its
-- bug: leaving the foreground it opens a write transaction (the shared lock) and commits only
-- when it comes back, so it still holds the lock when iOS suspends it: the 0xdead10cc kill
-- (docs/model.md §14).
app { name = "Journal", root = "Entries", minimumIOS = 12 }

local function beginTransaction()
  hold_lock("journal.sqlite", { shared = true })
  store("draft", "dear diary")
end

local function commit() release_lock("journal.sqlite") end

function AppDelegate.applicationDidEnterBackground(application) beginTransaction() end
function SceneDelegate.sceneDidEnterBackground(scene) beginTransaction() end
function AppDelegate.applicationWillEnterForeground(application) commit() end
function SceneDelegate.sceneWillEnterForeground(scene) commit() end

controller "Entries" {}
