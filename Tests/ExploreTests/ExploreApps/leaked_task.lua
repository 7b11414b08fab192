-- Planted bug: a leaked background task that needs a lock and time. Going to the background
-- starts a sync inside a background task that ends 15 s later; when protected data goes
-- away first (10 s after a lock), the sync is abandoned and its task is never ended, so the
-- system kills the app when the task's 30 s allowance runs out.
app { name = "Leak", root = "Main" }
controller "Main" {}
local abandoned = false
local function startSync(application)
  abandoned = false
  local task = application:beginBackgroundTask("sync", nil)
  after(15, function()
    if not abandoned then application:endBackgroundTask(task) end
  end)
end
function AppDelegate.applicationDidEnterBackground(application) startSync(application) end
function SceneDelegate.sceneDidEnterBackground(scene) startSync(UIApplication.shared) end
function AppDelegate.applicationProtectedDataWillBecomeUnavailable(application) abandoned = true end
