-- luacheck configuration for lifesim's Lua scripts: the globals each kind of script may use.
-- `make lint` (and the test suite) run `luacheck Scripts`.
std = "lua54"
exclude_files = { "Scripts/types/**" }  -- LuaLS annotations: declarations, not code
max_line_length = 140
unused_args = false  -- callbacks take UIKit's arguments whether or not they use them

local scenario_api = {
  "scenario", "launch", "prewarm", "home", "lock", "unlock", "interrupt", "end_interrupt", "app_switcher",
  "switch_to", "force_quit", "memory_warning", "memory_pressure", "background_launch", "open_url", "rotate",
  "push", "pop", "present", "dismiss", "select_tab", "swipe_back", "swipe_down", "advance",
  "notify", "tap_notification", "quick_action", "universal_link", "handoff",
  "bg_task", "power", "transfer_done", "cancel_task", "act",
  "expect_state", "expect_calls", "expect_no_calls", "expect_terminated", "expect_diagnostic", "expect", "stored",
  "app_state",
  "disconnect_scene", "time_change", "reboot",
  "open_window", "close_window", "focus", "side_by_side", "drag_divider",
}
local app_api = {
  "app", "controller", "work", "store", "stored", "log", "observe", "after", "push", "pop", "present", "dismiss",
  "UIApplication", "hold_lock", "release_lock", "UNUserNotificationCenter", "BGTaskScheduler", "background_transfer", "choose",
}

files["Scripts/scenarios"] = { read_globals = scenario_api }
files["Scripts/lib"] = { read_globals = scenario_api }
-- Apps define their delegate methods on these tables, and keep their state in globals of their own.
files["Scripts/apps"] = { read_globals = app_api, globals = { "AppDelegate", "SceneDelegate", "URLSessionDelegate", "SAVE_SECONDS",
  "UPLOAD_SECONDS", "NotificationDelegate", "LATE_DELEGATE", "HANDLES_SHORTCUT_AT_LAUNCH", "FETCH_SECONDS", "FORGETS_TO_COMPLETE" },
  allow_defined_top = true }
