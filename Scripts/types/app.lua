---@meta
-- Lua Language Server annotations for lifesim app scripts (docs/lua-api.md; handler keys: docs/model.md §1).

---@class AppConfig
---@field name? string
---@field root? string                   # root controller class
---@field container? "navigation"|"none" # wraps the root (or each tab) in a navigation controller
---@field tabs? string[]                 # a tab bar controller as root
---@field bgTaskIdentifiers? string[]    # Info.plist's BGTaskSchedulerPermittedIdentifiers; "com.example.export.*": a wildcard (iOS 26 continued tasks)
---@field minimumIOS? integer            # deployment target (default 13); below 13 no handler diagnostics
---@field sdk? 12|13|14|15|16|17|18|26|27 # the SDK the app is built with (default 26, or the iOS if older; --sdk wins)
---@field multipleScenes? boolean       # Info.plist's UIApplicationSupportsMultipleScenes: several windows on iPad (default false)
---@field sceneManifest? "none"|"empty"|"configured" # Info.plist's UIApplicationSceneManifest: absent, no UISceneConfigurations, or configured; with AppDelegate.configurationForConnecting it decides scenes (default: the scenario's scenes)

---@param config AppConfig
function app(config) end

---@class UIApplication
---@field backgroundTimeRemaining number  # seconds; DBL_MAX in the foreground
---@field applicationState "active"|"inactive"|"background"
---@field isProtectedDataAvailable boolean
local UIApplicationInstance = {}
---@param name? string
---@param expiration? fun()
---@return integer task
function UIApplicationInstance:beginBackgroundTask(name, expiration) end
---@param task integer
function UIApplicationInstance:endBackgroundTask(task) end
---iPad: a new window (session nil) or Scene#session's window frontmost; the activity goes to
---willConnectTo's options.userActivities, or to scene(_:continue:). Served once the handler returns.
---A new window the app cannot have (an iPhone, no scenes, no multipleScenes) calls errorHandler
---then with "multipleScenesNotSupported"; the app goes on.
---@param request? { session?: integer, activity?: string, errorHandler?: fun(err: "multipleScenesNotSupported") }
function UIApplicationInstance:requestSceneSessionActivation(request) end
---iPad: closes window n, the one Scene#n opened (served once the handler returns).
---@param n integer
function UIApplicationInstance:requestSceneSessionDestruction(n) end
---A read of the app delegate's window: true when UIKit set it (only in a run without scenes).
---@param site? string  # the code that reads it, e.g. "Banner.swift:5"
---@return boolean
function UIApplicationInstance:delegateWindow(site) end
---A window made with UIWindow(frame:) and made key and visible: true when it is shown (only in a run without scenes).
---@param site? string  # the code that makes it, e.g. "AppDelegate.swift:12"
---@return boolean
function UIApplicationInstance:frameWindow(site) end

---@class UIApplicationClass
---@field shared UIApplication
UIApplication = {}

---@class UIScene
---@field id string  # "Scene#1"
local UISceneInstance = {}
---Recorded as an app call; no other effect (docs/model.md §17).
function UISceneInstance:extendStateRestoration() end
---Recorded as an app call; no other effect (docs/model.md §17).
function UISceneInstance:completeStateRestoration() end

---An NSUserActivity as a table: `activityType` is required, the rest is the app's.
---@class UserActivity
---@field activityType string   # "NSUserActivityTypeBrowsingWeb" for a universal link
---@field webpageURL? string
---@field userInfo? table

---@class UISceneSession
---@field stateRestorationActivity? UserActivity  # what stateRestorationActivity returned before a system kill; nil after a force quit

---A restoration coder: a plain table; what encode writes, the next process's decode reads.
---@alias RestorationCoder table

---@class UIViewController
---@field id string     # "NoteList#1"
---@field class string  # "NoteList"

---@class ShortcutItem
---@field type string

---@class LaunchOptions
---@field url? string
---@field shortcutItem? ShortcutItem
---@field userActivityDictionary? UserActivity
---@field remoteNotification? { id: string }

---@class ConnectionOptions
---@field url? string
---@field userActivities? UserActivity[]
---@field shortcutItem? ShortcutItem
---@field notificationResponse? { id: string, action: string }
---@field handoffUserActivityType? string

---@class AppDelegateHandlers
---@field willFinishLaunchingWithOptions? fun(application: UIApplication, options: LaunchOptions): boolean?  # false: a launch quick action or activity is not delivered again
---@field didFinishLaunchingWithOptions? fun(application: UIApplication, options: LaunchOptions): boolean?
---@field configurationForConnecting? fun(application: UIApplication)
---@field didDiscardSceneSessions? fun(application: UIApplication)
---@field applicationWillResignActive? fun(application: UIApplication)
---@field applicationDidEnterBackground? fun(application: UIApplication)
---@field applicationWillEnterForeground? fun(application: UIApplication)
---@field applicationDidBecomeActive? fun(application: UIApplication)
---@field applicationWillTerminate? fun(application: UIApplication)
---@field applicationDidReceiveMemoryWarning? fun(application: UIApplication)
---@field applicationProtectedDataWillBecomeUnavailable? fun(application: UIApplication)
---@field applicationProtectedDataDidBecomeAvailable? fun(application: UIApplication)
---@field openURL? fun(application: UIApplication, url: string)
---@field performFetchWithCompletionHandler? fun(application: UIApplication, completion: fun())
---@field didReceiveRemoteNotification? fun(application: UIApplication, userInfo: table, completion: fun())
---@field applicationSignificantTimeChange? fun(application: UIApplication)  # after UIApplication.significantTimeChangeNotification
---@field willContinueUserActivityWithType? fun(application: UIApplication, type: string): boolean?
---@field continueUserActivity? fun(application: UIApplication, activity: UserActivity, restorationHandler: fun(controllers: UIViewController[])): boolean?
---@field didFailToContinueUserActivity? fun(application: UIApplication, type: string, error: { code: integer, domain: string })
---@field performActionForShortcutItem? fun(application: UIApplication, item: ShortcutItem, completion: fun(succeeded: boolean?))
---@field handleEventsForBackgroundURLSession? fun(application: UIApplication, identifier: string, completion: fun())
---@field shouldSaveSecureApplicationState? fun(application: UIApplication, coder: RestorationCoder): boolean
---@field shouldRestoreSecureApplicationState? fun(application: UIApplication, coder: RestorationCoder): boolean
---@field shouldSaveApplicationState? fun(application: UIApplication, coder: RestorationCoder): boolean     # iOS 12; deprecated from 13.2
---@field shouldRestoreApplicationState? fun(application: UIApplication, coder: RestorationCoder): boolean  # iOS 12; deprecated from 13.2
---@field willEncodeRestorableStateWith? fun(application: UIApplication, coder: RestorationCoder)
---@field didDecodeRestorableStateWith? fun(application: UIApplication, coder: RestorationCoder)
---@field viewControllerWithRestorationIdentifierPath? fun(application: UIApplication, path: string[], coder: RestorationCoder): string?
AppDelegate = {}

---@class SceneDelegateHandlers
---@field willConnectTo? fun(scene: UIScene, session: UISceneSession, options: ConnectionOptions)
---@field sceneDidDisconnect? fun(scene: UIScene)
---@field sceneWillEnterForeground? fun(scene: UIScene)
---@field sceneDidBecomeActive? fun(scene: UIScene)
---@field sceneWillResignActive? fun(scene: UIScene)
---@field sceneDidEnterBackground? fun(scene: UIScene)
---@field openURLContexts? fun(scene: UIScene, urls: string[])
---@field willContinueUserActivityWithType? fun(scene: UIScene, type: string)
---@field continueUserActivity? fun(scene: UIScene, activity: UserActivity)
---@field didFailToContinueUserActivity? fun(scene: UIScene, type: string, error: { code: integer, domain: string })
---@field performActionForShortcutItem? fun(scene: UIScene, item: ShortcutItem, completion: fun(succeeded: boolean?))
---@field stateRestorationActivity? fun(scene: UIScene): UserActivity?
---@field restoreInteractionStateWith? fun(scene: UIScene, activity: UserActivity)  # iOS >= 15
SceneDelegate = {}

---@class UNUserNotificationCenter
UNUserNotificationCenter = {}
---From now on (in this process) the NotificationDelegate handlers are called; before
---didFinishLaunchingWithOptions returns for the tap that launches the app.
function UNUserNotificationCenter:setDelegate() end

---@class NotificationDelegateHandlers
---@field willPresent? fun(center: UNUserNotificationCenter, notification: { id: string }, completion: fun(options: table?))
---@field didReceive? fun(center: UNUserNotificationCenter, response: { id: string, action: string }, completion: fun())
NotificationDelegate = {}
---@class URLSessionTask
---@field taskIdentifier integer  # what background_transfer returned

---@class URLSessionDelegateHandlers
---@field didCompleteWithError? fun(session: string, task: URLSessionTask, error: { code: integer }?)
---@field didFinishEvents? fun(session: string)
URLSessionDelegate = {}

---@class BGTask
---@field identifier string
---@field kind "refresh"|"processing"|"continued"
---@field expirationHandler? fun()  # read when the task expires; nil: the task ends unsuccessfully
local BGTaskInstance = {}
---@param success boolean
function BGTaskInstance:setTaskCompleted(success) end
---Continued tasks only (iOS 26): the Live Activity's progress; more done restarts the no-progress clock.
---@param done integer   # 0 ≤ done ≤ total
---@param total integer  # > 0
function BGTaskInstance:updateProgress(done, total) end

---@class BGTaskRequest
---@field id string
---@field kind "refresh"|"processing"|"continued"  # continued: iOS 26 and later, from the foreground only
---@field earliestBegin? number            # seconds after the submit (default: due at once); not continued
---@field title? string                    # continued only (required): the Live Activity's title
---@field subtitle? string                 # continued only (required)
---@field strategy? "queue"|"fail"         # continued only: wait behind the running one (default) or answer "immediateRunIneligible"
---@field requiresExternalPower? boolean   # processing only
---@field requiresNetwork? boolean         # processing only; recorded, never holds a request back

---iOS 13 and later only (nil before, as the class is).
---@class BGTaskSchedulerClass
BGTaskScheduler = {}
---Only until didFinishLaunchingWithOptions returns; later, or twice, crashes the app. An id a
---wildcard entry permits (iOS 26 continued tasks) may come later, but before its submit.
---@param id string
---@param launchHandler fun(task: BGTask)
---@return boolean registered  # false: id is not in bgTaskIdentifiers
function BGTaskScheduler:register(id, launchHandler) end
---@param request BGTaskRequest
---@return boolean ok
---@return "notPermitted"|"tooManyPendingTaskRequests"|"unavailable"|"immediateRunIneligible"|nil error
function BGTaskScheduler:submit(request) end

---@class ControllerHandlers
---@field init? fun(vc: UIViewController)
---@field loadView? fun(vc: UIViewController)
---@field viewDidLoad? fun(vc: UIViewController)
---@field viewWillAppear? fun(vc: UIViewController, animated: boolean)
---@field viewIsAppearing? fun(vc: UIViewController, animated: boolean)
---@field viewWillLayoutSubviews? fun(vc: UIViewController)
---@field viewDidLayoutSubviews? fun(vc: UIViewController)
---@field updateProperties? fun(vc: UIViewController)
---@field viewDidAppear? fun(vc: UIViewController, animated: boolean)
---@field viewWillDisappear? fun(vc: UIViewController, animated: boolean)
---@field viewDidDisappear? fun(vc: UIViewController, animated: boolean)
---@field didReceiveMemoryWarning? fun(vc: UIViewController)
---@field willTransitionToTraitCollection? fun(vc: UIViewController, orientation: string)
---@field viewWillTransitionToSize? fun(vc: UIViewController, orientation: string)
---@field traitCollectionDidChange? fun(vc: UIViewController)
---@field restoreUserActivityState? fun(vc: UIViewController, activity: UserActivity)
---@field actions? table<string, fun(vc: UIViewController, ...: string|number|boolean)>  # user actions a scenario performs with act(name, …)
---@field encodeRestorableState? fun(vc: UIViewController, coder: RestorationCoder)
---@field decodeRestorableState? fun(vc: UIViewController, coder: RestorationCoder)
---@field applicationFinishedRestoringState? fun(vc: UIViewController)

---A controller's table: its handlers, and its restoration identifier (docs/model.md §17).
---@class ControllerTable: ControllerHandlers
---@field restorationIdentifier? string  # opts the controller into view-controller restoration

---Declares a view-controller class: `controller "NoteList" { viewDidLoad = function(vc) end }`.
---@param name string
---@return fun(handlers: ControllerTable)
function controller(name) end

---Blocks the main thread for that much virtual time.
---@param seconds number
function work(seconds) end
---Persists a value (string, number, boolean, or a table of them); survives termination. Returns
---false (storing nothing) while the protection class is unavailable: before the first unlock after
---a reboot for "untilFirstUnlock" (the default) and "complete", while protected data is unavailable for "complete".
---@param key string
---@param value any
---@param opts? { protection?: "none"|"untilFirstUnlock"|"complete" }
---@return boolean stored
function store(key, value, opts) end
---nil while the key's protection class is unavailable.
---@param key string
---@return any
function stored(key) end
---Takes a file lock; a `shared` one (an app-group container) still held when the app would be
---suspended is the 0xdead10cc kill (termination "suspended_with_locked_file").
---@param name string
---@param opts? { shared?: boolean }
function hold_lock(name, opts) end
---@param name string
function release_lock(name) end
---@param name string
function push(name) end
function pop() end
---@param name string
---@param opts? { style?: "fullScreen"|"pageSheet"|"formSheet"|"overFullScreen", navigation?: boolean }
function present(name, opts) end
function dismiss() end
---@param message string
function log(message) end
---@param notification string  # e.g. "UIApplication.didEnterBackgroundNotification"
---@param handler fun(name: string)
function observe(notification, handler) end
---Runs `fn` on the main thread after `seconds` of virtual time (DispatchQueue.main.asyncAfter).
---@param seconds number
---@param fn fun()
function after(seconds, fn) end
---A condition of the app's code the script does not decide (`lifesim scan --emit-app` writes one
---where the Swift's `if`, `guard` or optional chain cannot be read). The run decides it: forced
---with `--choose SITE=true|false`, else drawn from the run's seed. The log records each outcome.
---@param site string  # where the condition is written, e.g. "AppDelegate.swift:57"
---@return boolean
function choose(site) end
---Starts a transfer in a background URL session; transfer_done(session) in the scenario finishes it.
---@param opts { session: string, seconds?: number }
---@return integer taskIdentifier
function background_transfer(opts) end
