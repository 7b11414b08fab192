-- A news feed that refreshes itself in the background with BGTaskScheduler the way Apple's
-- guidance asks: both launch handlers registered in didFinishLaunching (every launch,
-- background ones too), the next refresh submitted each time the app enters the background
-- (at most one refresh is pending: a new request replaces the old), the work done
-- asynchronously and the task completed when it ends, and an expiration handler that cancels
-- the work and completes the task unsuccessfully. A cache clean-up runs as a processing task
-- that needs external power. Finished downloads of a background URL session are collected in
-- handleEventsForBackgroundURLSession, whose completion is called after didFinishEvents.
app { name = "Feed", root = "Timeline", container = "navigation",
      bgTaskIdentifiers = { "com.example.feed.refresh", "com.example.feed.cleanup" }, minimumIOS = 12 }

local REFRESH, CLEANUP = "com.example.feed.refresh", "com.example.feed.cleanup"
-- How long a refresh's download takes (feed_slow.lua makes it outlast the task's 30 s).
local fetchSeconds = FETCH_SECONDS or 2
-- Whether the expiration handler forgets to complete the task (feed_forgetful.lua).
local forgetsToComplete = FORGETS_TO_COMPLETE or false
local sessionCompletion

local function scheduleRefresh()
  if not BGTaskScheduler then return end  -- iOS 12: no BGTaskScheduler
  local ok, err = BGTaskScheduler:submit { id = REFRESH, kind = "refresh", earliestBegin = 15 * 60 }
  if not ok then log("refresh not scheduled: " .. err) end
end

local function scheduleCleanup()
  if not BGTaskScheduler then return end
  BGTaskScheduler:submit { id = CLEANUP, kind = "processing", requiresExternalPower = true }
end

local function refresh(task)
  scheduleRefresh()  -- the next one, as Apple's sample does first thing
  local cancelled = false
  task.expirationHandler = function()
    cancelled = true
    if not forgetsToComplete then task:setTaskCompleted(false) end
  end
  after(fetchSeconds, function()
    if cancelled then return end
    store("lastRefresh", os.time())
    task:setTaskCompleted(true)
  end)
end

local function cleanup(task)
  local cancelled = false
  task.expirationHandler = function()
    cancelled = true
    store("cleanup", "interrupted")
    task:setTaskCompleted(false)
  end
  after(600, function()  -- longer than a processing task may run: it is always interrupted
    if cancelled then return end
    store("cleanup", "done")
    task:setTaskCompleted(true)
  end)
end

function AppDelegate.didFinishLaunchingWithOptions(application, options)
  if BGTaskScheduler then
    BGTaskScheduler:register(REFRESH, refresh)
    BGTaskScheduler:register(CLEANUP, cleanup)
  end
  return true
end

local function enteredBackground()
  scheduleRefresh()
  scheduleCleanup()
  background_transfer { session = "com.example.feed.images", seconds = 20 }
end

function AppDelegate.applicationDidEnterBackground(application) enteredBackground() end
function SceneDelegate.sceneDidEnterBackground(scene) enteredBackground() end

function AppDelegate.handleEventsForBackgroundURLSession(application, identifier, completion)
  sessionCompletion = completion  -- called once every event of the session has arrived
end

function URLSessionDelegate.didCompleteWithError(session, task, error)
  if error then store("images", "failed " .. error.code) else store("images", "downloaded") end
end

function URLSessionDelegate.didFinishEvents(session)
  if sessionCompletion then sessionCompletion() sessionCompletion = nil end
end

controller "Timeline" {
  viewDidLoad = function(vc) end,
}
