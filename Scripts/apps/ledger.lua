-- A budget app that shares its SQLite database with a widget through an app-group container,
-- keeps a session token under data protection and rolls its totals over at midnight. It
-- releases the shared database lock before it can be suspended (docs/model.md §14).
app { name = "Ledger", root = "Accounts", container = "navigation", minimumIOS = 12 }

local database = "ledger.sqlite"

-- Every write holds the shared lock only for the transaction.
local function writeTotals()
  hold_lock(database, { shared = true })
  work(0.2)
  release_lock(database)
end

function AppDelegate.didFinishLaunchingWithOptions(application, options)
  if stored("session") == nil then store("session", "s-1") end  -- untilFirstUnlock (the default)
  return true
end

function AppDelegate.applicationDidEnterBackground(application) writeTotals() end
function SceneDelegate.sceneDidEnterBackground(scene) writeTotals() end

-- Midnight (or a time-zone change): start a new day. The count is kept readable at any time.
function AppDelegate.applicationSignificantTimeChange(application)
  store("rollovers", (stored("rollovers") or 0) + 1, { protection = "none" })
  writeTotals()
end

-- A silent push refreshes balances; before the first unlock after a reboot the session is unreadable.
function AppDelegate.didReceiveRemoteNotification(application, userInfo, completion)
  store("pushSawSession", stored("session") ~= nil, { protection = "none" })
  store("pushWroteSession", store("session", "s-2"), { protection = "none" })
  completion()
end

function AppDelegate.applicationProtectedDataDidBecomeAvailable(application)
  store("protectedDataBack", UIApplication.shared.isProtectedDataAvailable, { protection = "none" })
end

controller "Accounts" {}
