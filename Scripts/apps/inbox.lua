-- A mail app opened from outside: notifications (it sets its UNUserNotificationCenter delegate
-- while launching, as it must), Home Screen quick actions, universal links and Handoff. It
-- records in `store` what opened it, so scenarios can check the value that reached the app.
-- Globals a scenario's --app copy may set: LATE_DELEGATE (set the delegate only once active, too
-- late for the tap that launches the app), HANDLES_SHORTCUT_AT_LAUNCH (a sceneless launch by a
-- quick action is handled in didFinishLaunching, which then returns false).
app { name = "Inbox", root = "MessageList", container = "navigation", minimumIOS = 12 }

local lateDelegate = LATE_DELEGATE
local list  -- the message list controller, for the restoration handler
if not lateDelegate then UNUserNotificationCenter:setDelegate() end

function AppDelegate.didFinishLaunchingWithOptions(application, options)
  if options.shortcutItem and HANDLES_SHORTCUT_AT_LAUNCH then
    store("shortcut", options.shortcutItem.type)
    return false  -- handled here: performActionFor must not follow
  end
  if options.userActivityDictionary then store("launchActivity", options.userActivityDictionary.activityType) end
  return true
end

function SceneDelegate.willConnectTo(scene, session, options)
  if options.notificationResponse then store("connectedWithResponse", options.notificationResponse.id) end
  if options.shortcutItem then store("shortcut", options.shortcutItem.type) end
  if options.userActivities then store("link", options.userActivities[1].webpageURL) end
  if options.handoffUserActivityType then store("handoffType", options.handoffUserActivityType) end
end

local function becameActive()
  if lateDelegate then UNUserNotificationCenter:setDelegate() end
end
function AppDelegate.applicationDidBecomeActive(application) becameActive() end
function SceneDelegate.sceneDidBecomeActive(scene) becameActive() end

function NotificationDelegate.willPresent(center, notification, completion)
  completion({ "banner", "sound" })
end

function NotificationDelegate.didReceive(center, response, completion)
  store("response", response.id .. ":" .. response.action)
  if response.action == "archive" then
    work(1)        -- archiving on the server, in the background
  end
  completion()
end

local function performAction(item, completion)
  store("shortcut", item.type)
  completion(true)
end
function AppDelegate.performActionForShortcutItem(application, item, completion) performAction(item, completion) end
function SceneDelegate.performActionForShortcutItem(scene, item, completion) performAction(item, completion) end

function AppDelegate.willContinueUserActivityWithType(application, type) return true end
function AppDelegate.continueUserActivity(application, activity, restorationHandler)
  store("continued", activity.webpageURL or activity.activityType)
  restorationHandler({ list })   -- the message list shows the message
  return true
end
function SceneDelegate.continueUserActivity(scene, activity)
  store("continued", activity.webpageURL or activity.activityType)
end

controller "MessageList" {
  viewDidLoad = function(vc) list = vc end,
  restoreUserActivityState = function(vc, activity) store("restored", vc.id) end,
}
