---@meta
-- Lua Language Server annotations for lifesim scenario scripts (docs/lua-api.md).

---@alias AppStateName "not_running"|"inactive"|"active"|"background"|"suspended"
---@alias TerminationReason "watchdog"|"background_task_expired"|"jetsam"|"crash"|"user"|"suspended_with_locked_file"|"reboot"

---@class ScenarioConfig
---@field name? string
---@field ios? 12|13|14|15|16|17|18|26|27  # platform profile: a released iOS, 12 to 18, 26, or 27 (default 17)
---@field ios_range? string   # where the scenario applies, e.g. "15-26" or "13,15-17": lifesim test skips other profiles
---@field scenes? boolean      # UIScene life cycle (default: ios >= 13, or what the app's sceneManifest gives; must agree with it)
---@field device? "iphone"|"ipad"  # an iPad shows several windows of one app (needs iOS 13 and scenes; default "iphone")
---@field seed? integer        # drives math.random (default 1)
---@field strict? boolean      # any diagnostic fails the run, as --strict does (default false)
---@field app? string          # app script, relative to this file
---@field knobs? table<string, number|boolean|string>  # e.g. { backgroundTaskAllowance = 40, notificationCenterDoubleActivation = false }; docs/lua-api.md lists them

---Declares the run; must come before the first verb.
---@param config ScenarioConfig
function scenario(config) end

---Tap the icon: a cold launch, or back to the foreground.
---@param opts? { url?: string }
function launch(opts) end
---iOS 15+: create and suspend the process before any user action.
function prewarm() end
function home() end
function lock() end
function unlock() end
---A full "notification_center" pull resigns and becomes active twice (knob notificationCenterDoubleActivation).
---@param kind "call"|"alert"|"notification_center"|"control_center"
function interrupt(kind) end
---@param how "declined"|"answered"|"dismissed"
function end_interrupt(how) end
function app_switcher() end
---@param which "self"|"other"
function switch_to(which) end
function force_quit() end
function memory_warning() end
---The system reclaims suspended apps; "critical": one running in the background too (never a foreground app).
---@param level? "critical"
function memory_pressure(level) end
---@param event "fetch"|"push"
function background_launch(event) end
---@param url string
function open_url(url) end
---@param orientation "portrait"|"landscape"
function rotate(orientation) end
---@param name string   # a controller class the app declares
function push(name) end
function pop() end
---@param name string
---@param opts? { style?: "fullScreen"|"pageSheet"|"formSheet"|"overFullScreen", navigation?: boolean }
function present(name, opts) end
function dismiss() end
---@param index integer  # 1 is the first tab
function select_tab(index) end
---@param opts? { cancel?: boolean }
function swipe_back(opts) end
---@param opts? { cancel?: boolean }
function swipe_down(opts) end
---Lets virtual time pass.
---@param seconds number
function advance(seconds) end
---UIKit reclaims the background scene Scene#n: sceneDidDisconnect, the scene and its controllers are
---released, the session is kept (the next launch reconnects from willConnectTo).
---@param n integer
function disconnect_scene(n) end
---A significant time change: delivered now to a running app, queued (once) while suspended, lost otherwise.
function time_change() end
---The device restarts: the process ends with no callback, the device is locked; the next unlock() is the first.
function reboot() end
---Performs a user action of the controller on screen (declared in its `actions` table); the
---values after the name are passed after `vc`. Only while the app is active and frontmost.
---@param name string                     # e.g. "type"
---@param ... string|number|boolean       # the action's arguments, e.g. "hello"
function act(name, ...) end
---A notification arrives while the app is active: NotificationDelegate.willPresent (if the app set its delegate).
---@param opts { id: string }
function notify(opts) end
---Tap a notification: a cold launch, a return, or (app active) didReceive alone. An `action`
---other than "default" runs the app in the background (no scene) unless `foreground = true`.
---@param opts { id: string, action?: string, foreground?: boolean }
function tap_notification(opts) end
---A Home Screen quick action (never while the app is active): options.shortcutItem cold, performActionForShortcutItem warm.
---@param type string
function quick_action(type) end
---A universal link: the activity { activityType = "NSUserActivityTypeBrowsingWeb", webpageURL = url }.
---@param url string
function universal_link(url) end
---An activity handed off from another device (never while the app is active).
---@param type string  # the activity type
function handoff(type) end
---iOS 13+: the system runs the pending, due BGTaskScheduler request in the background (a scenario
---error in the foreground, before it is due, or without power(true) when it requires external power).
---@param id string  # the request's identifier
function bg_task(id) end
---The device goes on (true) or off (false) external power.
---@param on boolean
function power(on) end
---Every transfer of the background URL session that has run its seconds finishes.
---@param session string
function transfer_done(session) end
---iOS 26+: the user cancels the running continued task from its Live Activity (its expiration handler runs).
---@param id string  # the continued task's identifier
function cancel_task(id) end
---iPad, app active: the user opens a new window (a new scene, frontmost); needs app { multipleScenes = true }.
---@param opts? { activity?: string, from?: integer }  # from: the scene the user acted in
function open_window(opts) end
---iPad: the user closes window n, the one Scene#n opened (sceneDidDisconnect, then didDiscardSceneSessions).
---@param n integer
function close_window(n) end
---iPad: window n (the one Scene#n opened) comes frontmost, reconnecting its scene if it was released;
---the other windows on screen go to the background (not with ipadWindowing26).
---@param n integer
function focus(n) end
---iPad Split View: both scenes foreground active, b frontmost.
---@param a integer
---@param b integer
function side_by_side(a, b) end
---iPad Split View: the divider moves: each visible scene resigns, resizes and becomes active again.
function drag_divider() end

---The application's state; with n, scene Scene#n's ("active", "inactive", "background", "unattached").
---@param state AppStateName|"unattached"
---@param n? integer
function expect_state(state, n) end
---These callbacks, in this order, among the callbacks of the expectation window: since the
---verb that followed the previous expectations (callbacks not named are ignored).
---Names: "viewDidLoad", "NoteList.viewDidLoad", "NoteList#2.viewDidLoad".
---@param names string[]
function expect_calls(names) end
---None of these callbacks in the expectation window.
---@param names string[]
function expect_no_calls(names) end
---The app is not running and its last termination had this reason (nil: any). Names the
---fault, so the run does not fail for an unexpected termination.
---@param reason? TerminationReason
function expect_terminated(reason) end
---The run has recorded a diagnostic with this code so far ("handler_never_called",
---"task_open_after_expiration", …). Names it, so --strict does not fail the run for it.
---@param code string
function expect_diagnostic(code) end
---@param condition any
---@param message string
function expect(condition, message) end
---Reads the app's persisted data.
---@param key string
---@return any
function stored(key) end
---@return AppStateName
function app_state() end
