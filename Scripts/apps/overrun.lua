-- The notes app with a slow save: writing the draft blocks the main thread for
-- 6 s inside didEnterBackground, over the 5 s budget, so the watchdog kills it
-- (0x8badf00d) before it can end its background task.
app { name = "Notes", root = "NoteList", container = "navigation" }

local draft = ""

function AppDelegate.didFinishLaunchingWithOptions(application, options)
  draft = stored("draft") or ""
  return true
end

local function saveDraft(application)
  local task
  task = application:beginBackgroundTask("save draft", function()
    application:endBackgroundTask(task)
  end)
  store("draft", draft)
  work(6)                                -- a synchronous save that takes 6 s
  application:endBackgroundTask(task)
end

function AppDelegate.applicationDidEnterBackground(application) saveDraft(application) end
function SceneDelegate.sceneDidEnterBackground(scene) saveDraft(UIApplication.shared) end

controller "NoteList" {
  viewDidLoad = function(vc) draft = stored("draft") or "" end,
  viewWillAppear = function(vc, animated) draft = draft .. "!" end,
}

controller "NoteEditor" {
  viewWillDisappear = function(vc, animated) store("draft", draft) end,
}
