import JSON
import Lifecycle

/// The files `lifesim init` writes: a scenario and an app that run green, and the Lua
/// Language Server settings that give both completion and checking.
package enum Starter {
  /// The files, named and in the order written: the scenario first. `types`: the folder of
  /// lifesim's Lua annotations.
  package static func files(types: String) -> [(name: String, text: String)] {
    [(scenarioName, scenario), (appName, app), (".luarc.json", luarc(types: types)), (".luacheckrc", luacheckrc)]
  }

  /// The scenario's file name.
  package static let scenarioName = "home_and_return.lua"
  /// The app's file name, as the scenario names it.
  package static let appName = "app.lua"

  /// The scenario: launch, home for a minute, back.
  package static let scenario = """
    -- A first scenario: launch the app, send it home for a minute, bring it back.
    -- Run it with `lifesim run home_and_return.lua`; each expect_… line checks the verb above it.
    scenario { name = "home and return", ios = \(IOSRelease.defaultVersion), scenes = true, app = "app.lua" }

    launch()
    expect_calls { "viewDidLoad", "sceneDidBecomeActive" }
    expect_state("active")

    home()
    expect_calls { "sceneWillResignActive", "sceneDidEnterBackground" }
    expect(stored("draft") ~= nil, "the draft is saved on the way to the background")

    advance(60)
    expect_state("suspended")

    launch()
    expect_calls { "sceneWillEnterForeground", "sceneDidBecomeActive" }
    expect_no_calls { "viewDidLoad", "viewWillAppear" }  -- the view never left the window

    """

  /// The app the scenario runs against.
  package static let app = """
    -- Your app's lifecycle code: what the delegates and view controllers do.
    -- Handler names and arguments: docs/lua-api.md, or completion from .luarc.json.
    app { name = "Starter", root = "Editor" }

    local draft = "hello"

    function SceneDelegate.sceneDidEnterBackground(scene)
      -- Save inside a background task, and always end it.
      local task
      task = UIApplication.shared:beginBackgroundTask("save draft", function()
        UIApplication.shared:endBackgroundTask(task)
      end)
      store("draft", draft)
      work(0.2)  -- writing the draft blocks the main thread for 0.2 s
      UIApplication.shared:endBackgroundTask(task)
    end

    controller "Editor" {
      viewDidLoad = function(vc) draft = stored("draft") or draft end,
    }

    """

  /// The scenario API's globals for `.luacheckrc`: `scenario`, every verb of the verb table (so a
  /// new verb is known as soon as it is declared), the expectations and the reads, a few a line.
  package static var scenarioGlobals: String {
    let names = ["scenario"] + VerbSpec.all.map(\.name)
      + ["expect_state", "expect_calls", "expect_no_calls", "expect_terminated", "expect_diagnostic", "expect", "stored", "app_state"]
    return stride(from: 0, to: names.count, by: 8).map { start in
      names[start..<min(start + 8, names.count)].map { "\"\($0)\"," }.joined(separator: " ")
    }.joined(separator: "\n  ")
  }

  /// `.luacheckrc`: luacheck's settings for the folder (`cd DIR && luacheck .`), modelled on
  /// lifesim's own: the scenario API for scenarios and their modules, the app API for `app.lua`
  /// and anything under an `apps` folder, whose delegate tables and top-level globals are theirs.
  package static var luacheckrc: String {
    """
    -- luacheck settings for lifesim scripts: run `luacheck .` in this folder.
    std = "lua54"
    max_line_length = 140
    unused_args = false  -- callbacks take UIKit's arguments whether or not they use them

    local scenario_api = {
      \(scenarioGlobals)
    }
    local app_api = {
      "app", "controller", "work", "store", "stored", "log", "observe", "after", "push", "pop", "present", "dismiss",
      "UIApplication", "hold_lock", "release_lock", "UNUserNotificationCenter", "BGTaskScheduler", "background_transfer", "choose",
    }
    local app_files = { new_read_globals = app_api, allow_defined_top = true,
      globals = { "AppDelegate", "SceneDelegate", "URLSessionDelegate", "NotificationDelegate" } }

    read_globals = scenario_api
    files["app.lua"] = app_files
    files["apps"] = app_files

    """
  }

  /// `.luarc.json`: Lua 5.4 and lifesim's annotations (`types`: the folder of them).
  package static func luarc(types: String) -> String {
    """
    {
      "runtime.version": "Lua 5.4",
      "workspace.library": [\(JSONValue.string(types).canonicalText)],
      "diagnostics.globals": ["AppDelegate", "SceneDelegate"]
    }

    """
  }
}
