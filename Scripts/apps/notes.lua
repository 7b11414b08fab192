-- A well-behaved notes app: it saves the draft as soon as it leaves the
-- foreground, inside a background task that it always ends.
app { name = "Notes", root = "NoteList", container = "navigation", minimumIOS = 12 }

local draft = ""
-- How long writing the draft blocks the main thread.
local saveSeconds = SAVE_SECONDS or 0.5
-- A synchronous upload of the draft after saving it, still inside didEnterBackground
-- (apps/overrun.lua sets 6 s: past the 5 s budget). None here.
local uploadSeconds = UPLOAD_SECONDS

function AppDelegate.didFinishLaunchingWithOptions(application, options)
  draft = stored("draft") or ""
  return true
end

local function saveDraft(application)
  local task
  task = application:beginBackgroundTask("save draft", function()
    application:endBackgroundTask(task)  -- expiration: give up cleanly
  end)
  store("draft", draft)
  work(saveSeconds)                      -- writing the file
  application:endBackgroundTask(task)
end

local function enteredBackground(application)
  saveDraft(application)
  if uploadSeconds then work(uploadSeconds) end  -- blocks the main thread before returning
end

function AppDelegate.applicationDidEnterBackground(application) enteredBackground(application) end
function SceneDelegate.sceneDidEnterBackground(scene) enteredBackground(UIApplication.shared) end

controller "NoteList" {
  viewDidLoad = function(vc) draft = stored("draft") or "" end,
  viewWillAppear = function(vc, animated) draft = draft .. "!" end,
}

controller "NoteEditor" {
  viewWillDisappear = function(vc, animated) store("draft", draft) end,
}

controller "Settings" {}

-- Background refresh: fetch, then call the completion handler well within 30 s.
function AppDelegate.performFetchWithCompletionHandler(application, completion)
  after(2, function() store("lastFetch", "ok"); completion() end)
end

function AppDelegate.didReceiveRemoteNotification(application, userInfo, completion)
  store("pushes", (stored("pushes") or 0) + 1)
  completion()
end

function AppDelegate.openURL(application, url) store("openedURL", url) end
function SceneDelegate.openURLContexts(scene, urls) store("openedURL", urls[1]) end
function SceneDelegate.willConnectTo(scene, session, options)
  if options.url then store("openedURL", options.url) end
end
