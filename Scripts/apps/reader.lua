-- A reader that brings the reader back to the article they had open, the way Apple's sample
-- does (docs/model.md §17): the scene's restoration activity names the article and the scroll
-- position; willConnectTo reads it from the session, the list pushes the article once it is on
-- screen, and iOS 15's restoreInteractionStateWith puts the scroll position back. On iOS 12
-- (sceneless) the same app uses view-controller restoration: both controllers have a
-- restorationIdentifier and encode what they show.
-- From iOS 13 it also refreshes its articles in the background with BGTaskScheduler (docs/model.md
-- §16): the launch handler is registered before didFinishLaunching returns, a refresh is submitted
-- each time the app goes to the background, and the handler completes its task (or, when the
-- system expires it first, says so).
app { name = "Reader", root = "ArticleList", container = "navigation", bgTaskIdentifiers = { "com.example.reader.refresh" },
      minimumIOS = 12 }
local refreshID = "com.example.reader.refresh"

-- At most one refresh waits at a time: a new submit replaces the pending one. Not before iOS 13.
local function scheduleRefresh()
  if BGTaskScheduler then BGTaskScheduler:submit { id = refreshID, kind = "refresh", earliestBegin = 15 * 60 } end
end

function AppDelegate.didFinishLaunchingWithOptions(application, options)
  if BGTaskScheduler then
    BGTaskScheduler:register(refreshID, function(task)
      task.expirationHandler = function() task:setTaskCompleted(false) end
      work(2)                                              -- download the new articles
      store("refreshes", (stored("refreshes") or 0) + 1)
      scheduleRefresh()                                    -- and ask for the next refresh
      task:setTaskCompleted(true)
    end)
  end
  return true
end

function SceneDelegate.sceneDidEnterBackground(scene) scheduleRefresh() end
function AppDelegate.applicationDidEnterBackground(application) scheduleRefresh() end

local articleType = "com.example.reader.article"
local open          -- the article on screen: { id =, offset = }, or nil on the list
local reopen        -- the article to push back once the list has appeared
local nextArticle = 1

local function currentActivity()
  if not open then return nil end
  return { activityType = articleType, userInfo = { article = open.id, offset = open.offset } }
end

-- Scene apps: save at every move to the background, read back at connection.
function SceneDelegate.stateRestorationActivity(scene) return currentActivity() end

function SceneDelegate.willConnectTo(scene, session, options)
  local saved = session.stateRestorationActivity
  if saved and saved.activityType == articleType then
    reopen = { id = saved.userInfo.article, offset = 0 }
    store("restoredArticle", saved.userInfo.article)
  end
end

function SceneDelegate.restoreInteractionStateWith(scene, activity)
  scene:extendStateRestoration()      -- the article's text is still loading
  if reopen then reopen.offset = activity.userInfo.offset end
  store("restoredOffset", activity.userInfo.offset)
  scene:completeStateRestoration()
end

-- Sceneless (iOS 12): view-controller restoration with the secure pair, or the old one before 13.
function AppDelegate.shouldSaveSecureApplicationState(application, coder) return true end
function AppDelegate.shouldRestoreSecureApplicationState(application, coder) return true end
function AppDelegate.shouldSaveApplicationState(application, coder) return true end
function AppDelegate.shouldRestoreApplicationState(application, coder) return true end

controller "ArticleList" {
  restorationIdentifier = "list",
  viewDidAppear = function(vc, animated)
    if reopen then
      nextArticle = reopen.id
      push("Article")
      reopen = nil
    end
  end,
}

controller "Article" {
  restorationIdentifier = "article",
  viewDidLoad = function(vc)
    vc.article = nextArticle
    vc.offset = reopen and reopen.offset or 0
    nextArticle = nextArticle + 1
  end,
  -- Reading scrolls the article: 100 points per article number, as a stand-in for the user.
  viewDidAppear = function(vc, animated)
    if vc.offset == 0 then vc.offset = 100 * vc.article end
    open = { id = vc.article, offset = vc.offset }
  end,
  viewDidDisappear = function(vc, animated) open = nil end,
  encodeRestorableState = function(vc, coder) coder.article = vc.article end,
  decodeRestorableState = function(vc, coder)
    vc.article = coder.article
    open = { id = coder.article, offset = 0 }
    store("restoredArticle", coder.article)
  end,
}
