import Foundation
import JSON
import Lifecycle
import Testing
@testable import ScriptHost

/// Several scenes on iPad (docs/model.md §19), through the Lua surface: exact callback and
/// `UIApplication` notification sequences per scene, and the refusals at the scenario's line.
/// Sources: S1 (scenes share one process, each with its own life cycle), S12/S13 (the
/// application's state and notifications follow the most active scene), S137/S138
/// (`requestSceneSessionActivation`), S139 (the Split View divider resigns before the resize),
/// T118 (iPadOS 26 windows: `activeAppearance` instead of (de)activation); docs/model.md lists them.
@Suite struct SeveralScenesTests {
  static let app = """
    app { root = "Editor", multipleScenes = true }
    controller "Editor" {}
    """

  /// The callbacks of the appearance and layout passes that no scene rule decides (pinned by the
  /// one-scene conformance tests): left out so each sequence below reads the same on iOS 13 to 27.
  static let layout: Set<Callback> = [.`init`, .loadView, .viewIsAppearing, .updateProperties, .viewWillLayoutSubviews, .viewDidLayoutSubviews]

  /// Closing Scene#2 while it is the active window and Scene#1 is in the background: it leaves
  /// the screen, disconnects, its session is discarded at once, and the process suspends.
  static let closingTheActiveSecondWindow = [
    "Scene#2.SceneDelegate.sceneWillResignActive", "app willResignActive", "Scene#2.SceneDelegate.stateRestorationActivity",
    "Scene#2.SceneDelegate.sceneDidEnterBackground", "app didEnterBackground",
    "Editor#2.traitCollectionDidChange", "Editor#2.traitCollectionDidChange",
    "Scene#2.SceneDelegate.sceneDidDisconnect", "-Scene#2", "AppDelegate.didDiscardSceneSessions", "suspended",
  ]

  /// Runs `scenario` after `scenario { … device = "ipad" … }` on `ios` (with `knobs`), and returns
  /// the run and what it delivered after `print("mark")`: callbacks (`Scene#2.SceneDelegate.sceneDidBecomeActive`,
  /// a controller's `Editor#2.viewDidAppear`), `UIApplication` notifications (`app didBecomeActive`)
  /// and scene connections and disconnections.
  func run(_ scenario: String, ios: Int = 17, knobs: String = "", app: String = Self.app) throws -> (RunResult, [String]) {
    let run = try runScripts(app: app, scenario: """
      scenario { app = "app.lua", ios = \(ios), device = "ipad", knobs = { \(knobs) } }
      \(scenario)
      """)
    var lines: [String] = []
    for event in run.events {
      switch event.body {
      case let .noted(name, message, _) where name == "print" && message == "mark": lines = []
      case let .callbackDelivered(cb, target, _, _, arguments) where !Self.layout.contains(cb):
        lines.append((arguments.scene.map { "\($0)." } ?? "") + "\(target).\(cb.key)")
      case let .notificationPosted(name, _, _) where name.hasPrefix("UIApplication."):
        lines.append("app " + name.dropFirst("UIApplication.".count).replacingOccurrences(of: "Notification", with: ""))
      case let .sceneConnected(scene, _): lines.append("+\(scene)")
      case let .sceneDisconnected(scene): lines.append("-\(scene)")
      case .suspended: lines.append("suspended")
      default: break
      }
    }
    return (run.result, lines)
  }

  /// The script error of a run whose scenario is `source` (with `app` as app.lua).
  private func error(_ source: String, app: String = Self.app) throws -> String {
    let run = try runScripts(app: app, scenario: source)
    #expect(run.result.exitStatus == 2)
    return run.result.error ?? ""
  }

  @Test(arguments: [
    // Scene verbs on an iPhone, on an iPad without scenes, a second window without multipleScenes.
    ("scenario { app = \"app.lua\" }\nlaunch()\nopen_window()\n",
     "s.lua:3: open_window(): windows are an iPad's: declare scenario { device = \"ipad\" } (state: active)"),
    ("scenario { app = \"app.lua\" }\nlaunch()\nfocus(1)\n",
     "s.lua:3: focus(): windows are an iPad's: declare scenario { device = \"ipad\" } (state: active)"),
    ("scenario { app = \"app.lua\", device = \"ipad\" }\nlaunch()\nclose_window(2)\n",
     "s.lua:3: close_window(): no window 2 is open (open: 1 (Scene#1)) (state: active)"),
    ("scenario { app = \"app.lua\", device = \"ipad\" }\nlaunch()\ndrag_divider()\n",
     "s.lua:3: drag_divider(): no Split View: side_by_side(a, b) first (state: active)"),
    ("scenario { app = \"app.lua\", device = \"ipad\" }\nlaunch()\nside_by_side(1, 1)\n",
     "s.lua:3: side_by_side(): Split View needs two different windows (state: active)"),
    ("scenario { app = \"app.lua\", device = \"ipad\" }\nlaunch()\nopen_window { from = 0 }\n",
     "s.lua:3: open_window: from must be a window number (1 names the window Scene#1 opened), not 0"),
    ("scenario { app = \"app.lua\", device = \"ipad\" }\nlaunch()\nexpect_state(\"suspended\", 1)\n",
     "s.lua:3: expect_state: a scene's state is one of \"active\", \"inactive\", \"background\", \"unattached\""),
    ("scenario { app = \"app.lua\", device = \"ipad\" }\nlaunch()\nfocus(1)\n",
     "s.lua:3: focus(): window 1 (Scene#1) is already frontmost (state: active)"),
    ("scenario { app = \"app.lua\", device = \"ipad\" }\nlaunch()\nopen_window { from = 3 }\n",
     "s.lua:3: open_window(): no window 3 is open (open: 1 (Scene#1)) (state: active)"),
    ("scenario { app = \"app.lua\", device = \"ipad\" }\nlaunch()\nopen_window()\ndisconnect_scene(1)\nside_by_side(1, 2)\n",
     "s.lua:5: side_by_side(): window 1's scene is not connected (focus(1) reconnects it) (state: active)"),
    ("scenario { app = \"app.lua\", device = \"ipad\" }\nlaunch()\nopen_window()\ndisconnect_scene(1)\nopen_window { from = 1 }\n",
     "s.lua:5: open_window(): window 1's scene is not connected (focus(1) reconnects it) (state: active)"),
    ("scenario { app = \"app.lua\", device = \"ipad\" }\nlaunch()\nhome()\nopen_window()\n",
     "s.lua:4: open_window(): the app must be active and frontmost (state: suspended)"),
    // The device needs iOS 13 and scenes.
    ("scenario { app = \"app.lua\", device = \"ipad\", ios = 12 }\nlaunch()\n",
     "s.lua:1: device \"ipad\" needs iOS 13 or later (ios = 12)"),
    ("scenario { app = \"app.lua\", device = \"ipad\", scenes = false }\nlaunch()\n",
     "s.lua:1: device \"ipad\" needs scenes (scenes = false)"),
    ("scenario { app = \"app.lua\", device = \"ipod\" }\nlaunch()\n",
     "s.lua:1: scenario: device must be \"iphone\" or \"ipad\", not \"ipod\""),
  ])
  func refusals(_ source: String, _ message: String) throws {
    let got = try error(source)
    #expect(got.hasSuffix(message), "\(got)")
  }

  @Test func aSecondWindowNeedsMultipleScenes() throws {
    let got = try error("scenario { app = \"app.lua\", device = \"ipad\" }\nlaunch()\nopen_window()\n",
                        app: "app { root = \"Editor\" }\ncontroller \"Editor\" {}\n")
    #expect(got.hasSuffix("s.lua:3: open_window(): a second window needs app { multipleScenes = true } (state: active)"), "\(got)")
  }

  @Test func theHeaderRecordsTheDeviceAndMultipleScenesOnlyWhenNotDefault() throws {
    let ipad = try runScripts(app: Self.app, scenario: "scenario { app = \"app.lua\", device = \"ipad\" }\nlaunch()\nexpect_state(\"active\")\n")
    let iphone = try runScripts(app: "app { root = \"Editor\" }\ncontroller \"Editor\" {}\n",
                                scenario: "scenario { app = \"app.lua\" }\nlaunch()\nexpect_state(\"active\")\n")
    #expect(ipad.result.header?.profile["device"]?.stringValue == "ipad")
    #expect(ipad.result.header?.profile["multipleScenes"]?.boolValue == true)
    #expect(iphone.result.header?.profile["device"] == nil && iphone.result.header?.profile["multipleScenes"] == nil)
    let back = try #require(try ipad.result.header.map { try Profile(json: $0.profile) })
    #expect(back.device == .ipad && back.multipleScenes)
  }

  @Test func aHeaderNamingAnIPadWithoutScenesOrAnUnknownDeviceIsRefused() {
    let sceneless = JSONValue.object([("ios", .int(17)), ("scenes", .bool(false)), ("device", .string("ipad"))])
    let noScenes = #expect(throws: Profile.KnobError.self) { try Profile(json: sceneless) }
    #expect(noScenes?.description == "profile: device \"ipad\" needs scenes (scenes = false)")
    let ipod = JSONValue.object([("ios", .int(17)), ("scenes", .bool(true)), ("device", .string("ipod"))])
    let unknown = #expect(throws: Profile.KnobError.self) { try Profile(json: ipod) }
    #expect(unknown?.description == "profile: device must be \"iphone\" or \"ipad\"")
  }

  @Test func aFailedCallExpectationNamesTheScenesOfTheCallsOnceThereAreSeveral() throws {
    let run = try runScripts(app: Self.app, scenario: """
      scenario { app = "app.lua", device = "ipad" }
      launch()
      expect_state("active")
      open_window()
      expect_no_calls { "sceneDidBecomeActive" }
      """)
    let messages = run.events.compactMap { e -> String? in
      if case let .expectationChecked(_, false, message, _) = e.body { return message } else { return nil }
    }
    #expect(messages == ["covered open_window() at line 4: unexpected calls: Scene#2.SceneDelegate.sceneDidBecomeActive"])
  }

  // MARK: - Conformance: exact sequences per scene (iOS 13, 17, 26, 27)

  static let versions = [13, 17, 26, 27]

  /// A relaunch after jetsam: a kept session reconnects as `Scene#3` without
  /// `configurationForConnecting`; `reporting` comes after didFinishLaunching.
  static func relaunch(reporting: [String] = []) -> [String] {
    ["AppDelegate.willFinishLaunchingWithOptions", "AppDelegate.didFinishLaunchingWithOptions", "app didFinishLaunching"] + reporting
      + ["+Scene#3", "Scene#3.SceneDelegate.willConnectTo", "Editor#3.viewDidLoad", "Editor#3.viewWillAppear",
         "Scene#3.SceneDelegate.sceneWillEnterForeground", "app willEnterForeground",
         "Scene#3.SceneDelegate.sceneDidBecomeActive", "app didBecomeActive", "Editor#3.viewDidAppear"]
  }

  /// A new window leaves the app active: no `UIApplication` notification (S12, S13); the new
  /// session is configured, its scene connects with the activity (S137, S138), comes on screen
  /// frontmost, then the first window resigns and enters the background.
  static let newWindow = [
    "AppDelegate.configurationForConnecting", "+Scene#2", "Scene#2.SceneDelegate.willConnectTo",
    "Editor#2.viewDidLoad", "Editor#2.viewWillAppear",
    "Scene#2.SceneDelegate.sceneWillEnterForeground", "Scene#2.SceneDelegate.sceneDidBecomeActive", "Editor#2.viewDidAppear",
    "Scene#1.SceneDelegate.sceneWillResignActive", "Scene#1.SceneDelegate.stateRestorationActivity",
    "Scene#1.SceneDelegate.sceneDidEnterBackground", "Editor#1.traitCollectionDidChange", "Editor#1.traitCollectionDidChange",
  ]

  @Test(arguments: versions)
  func aNewWindowFromTheUser(ios: Int) throws {
    let (result, lines) = try run("""
      launch()
      expect_state("active")
      print("mark")
      open_window { activity = "compose", from = 1 }
      expect_state("active")
      expect_state("background", 1)
      expect_state("active", 2)
      expect_calls { "Scene#2.sceneDidBecomeActive", "Scene#2.Editor.viewDidAppear", "Scene#1.sceneWillResignActive" }
      expect_no_calls { "Scene#1.sceneDidBecomeActive", "Scene#2.sceneWillResignActive", "Scene#1.Editor.viewDidAppear" }
      """, ios: ios)
    #expect(lines == Self.newWindow)
    #expect(result.exitStatus == 0)
    #expect(result.state.expectationsPassed == 6 && result.state.expectationsFailed == 0)
  }

  @Test(arguments: versions)
  func aNewWindowFromTheApp(ios: Int) throws {
    let app = """
      app { root = "Editor", multipleScenes = true }
      controller "Editor" { actions = { compose = function(vc)
        UIApplication.shared:requestSceneSessionActivation { activity = "compose" }
        log("asked")
      end } }
      """
    let (result, lines) = try run("launch()\nprint(\"mark\")\nact(\"compose\")\nexpect_state(\"active\", 2)\n", ios: ios, app: app)
    #expect(lines == ["Editor#1.actions"] + Self.newWindow)
    #expect(result.exitStatus == 0)
  }

  @Test(arguments: versions)
  func focusSwitchesTheFrontWindow(ios: Int) throws {
    let (result, lines) = try run("launch()\nopen_window()\nprint(\"mark\")\nfocus(1)\nexpect_state(\"active\", 1)\nexpect_state(\"background\", 2)\n",
                                  ios: ios)
    #expect(lines == ["Scene#1.SceneDelegate.sceneWillEnterForeground", "Scene#1.SceneDelegate.sceneDidBecomeActive",
                      "Scene#2.SceneDelegate.sceneWillResignActive", "Scene#2.SceneDelegate.stateRestorationActivity",
                      "Scene#2.SceneDelegate.sceneDidEnterBackground", "Editor#2.traitCollectionDidChange", "Editor#2.traitCollectionDidChange"])
    #expect(result.exitStatus == 0)
  }

  /// iPadOS 26 windows (T118): the other window stays active; focus moving is a trait change of
  /// the two windows' controllers, no scene-delegate call.
  @Test(arguments: [26, 27])
  func windowing26KeepsEveryWindowActive(ios: Int) throws {
    let (result, lines) = try run("""
      launch()
      open_window()
      expect_state("active", 1)
      print("mark")
      focus(1)
      expect_state("active", 1)
      expect_state("active", 2)
      interrupt("alert")
      expect_state("inactive", 1)
      expect_state("inactive", 2)
      """, ios: ios, knobs: "ipadWindowing26 = true")
    #expect(lines == ["Editor#2.traitCollectionDidChange", "Editor#1.traitCollectionDidChange",
                      "Scene#1.SceneDelegate.sceneWillResignActive", "Scene#2.SceneDelegate.sceneWillResignActive", "app willResignActive"])
    #expect(result.exitStatus == 0)
  }

  /// Split View leaves both active; the divider resigns both, resizes, activates both, with the
  /// application's notifications once each way (S139).
  @Test(arguments: versions)
  func splitViewAndTheDivider(ios: Int) throws {
    let (result, lines) = try run("""
      launch()
      open_window()
      side_by_side(1, 2)
      expect_state("active", 1)
      expect_state("active", 2)
      print("mark")
      drag_divider()
      """, ios: ios)
    #expect(lines == ["Scene#2.SceneDelegate.sceneWillResignActive", "Scene#1.SceneDelegate.sceneWillResignActive", "app willResignActive",
                      "Editor#2.viewWillTransitionToSize", "Editor#1.viewWillTransitionToSize",
                      "Scene#2.SceneDelegate.sceneDidBecomeActive", "app didBecomeActive", "Scene#1.SceneDelegate.sceneDidBecomeActive"])
    #expect(result.exitStatus == 0)
  }

  /// Home and the switcher reach both windows of a Split View, frontmost first; the application's
  /// notifications come after the last scene's call, once.
  @Test(arguments: versions)
  func homeAndTheSwitcherWithTwoScenes(ios: Int) throws {
    let (result, lines) = try run("""
      launch()
      open_window()
      side_by_side(1, 2)
      print("mark")
      app_switcher()
      switch_to("self")
      home()
      expect_state("suspended")
      expect_state("background", 1)
      """, ios: ios)
    #expect(lines == [
      "Scene#2.SceneDelegate.sceneWillResignActive", "Scene#1.SceneDelegate.sceneWillResignActive", "app willResignActive",
      "Scene#2.SceneDelegate.sceneDidBecomeActive", "app didBecomeActive", "Scene#1.SceneDelegate.sceneDidBecomeActive",
      "Scene#2.SceneDelegate.sceneWillResignActive", "Scene#1.SceneDelegate.sceneWillResignActive", "app willResignActive",
      "Scene#2.SceneDelegate.stateRestorationActivity", "Scene#2.SceneDelegate.sceneDidEnterBackground",
      "Editor#2.traitCollectionDidChange", "Editor#2.traitCollectionDidChange",
      "Scene#1.SceneDelegate.stateRestorationActivity", "Scene#1.SceneDelegate.sceneDidEnterBackground", "app didEnterBackground",
      "Editor#1.traitCollectionDidChange", "Editor#1.traitCollectionDidChange", "suspended",
    ])
    #expect(result.exitStatus == 0)
  }

  @Test(arguments: versions)
  func closingTheActiveWindowDiscardsItsSessionAtOnce(ios: Int) throws {
    let (result, lines) = try run("launch()\nopen_window()\nprint(\"mark\")\nclose_window(2)\nexpect_state(\"background\", 1)\n", ios: ios)
    #expect(lines == Self.closingTheActiveSecondWindow)
    #expect(result.exitStatus == 0)
  }

  /// A window closed while the app is suspended: nothing runs; after jetsam the next launch
  /// reports the discarded session, and the kept one reconnects without a configuration.
  @Test(arguments: versions)
  func closingAWindowWhileSuspendedIsReportedAtTheNextLaunch(ios: Int) throws {
    let (result, lines) = try run("""
      launch()
      open_window()
      home()
      print("mark")
      close_window(1)
      memory_pressure()
      launch()
      expect_state("active", 3)
      """, ios: ios)
    #expect(lines == ["-Scene#1"] + Self.relaunch(reporting: ["AppDelegate.didDiscardSceneSessions"]))
    #expect(result.exitStatus == 0)
  }

  /// Jetsam takes both scenes with the process; both sessions are kept, so the relaunch
  /// reconnects one without `configurationForConnecting`.
  @Test(arguments: versions)
  func jetsamAndRelaunchWithTwoSessions(ios: Int) throws {
    let (result, lines) = try run("""
      launch()
      open_window()
      home()
      memory_pressure()
      expect_terminated("jetsam")
      print("mark")
      launch()
      expect_state("active", 3)
      expect_state("unattached", 1)
      """, ios: ios)
    #expect(lines == Self.relaunch())
    #expect(result.exitStatus == 0)
  }

  /// A URL reaches the front window of a running two-scene app.
  @Test(arguments: versions)
  func aURLToARunningTwoSceneApp(ios: Int) throws {
    let (result, lines) = try run("""
      launch()
      open_window()
      print("mark")
      open_url("composer://new")
      home()
      open_url("composer://again")
      expect_calls { "Scene#2.openURLContexts", "Scene#2.openURLContexts" }
      expect_no_calls { "Scene#1.openURLContexts" }
      """, ios: ios)
    #expect(Array(lines.prefix(1)) == ["Scene#2.SceneDelegate.openURLContexts"])
    #expect(Array(lines.suffix(5)) == ["Scene#2.SceneDelegate.sceneWillEnterForeground", "app willEnterForeground",
                                       "Scene#2.SceneDelegate.openURLContexts", "Scene#2.SceneDelegate.sceneDidBecomeActive",
                                       "app didBecomeActive"])
    #expect(result.exitStatus == 0)
  }

  /// The system disconnects the window behind (`disconnect_scene(1)`, to reclaim its memory):
  /// its own scene delegate hears `sceneDidDisconnect`, not the frontmost window's (found by the
  /// 5,000-seed invariant run, which gave the call to Scene#2).
  @Test(arguments: versions)
  func theSystemDisconnectsTheWindowBehind(ios: Int) throws {
    let (result, lines) = try run("""
      launch()
      open_window()
      print("mark")
      disconnect_scene(1)
      expect_calls { "Scene#1.sceneDidDisconnect" }
      expect_state("active", 2)
      """, ios: ios)
    #expect(lines == ["Scene#1.SceneDelegate.sceneDidDisconnect", "-Scene#1"])
    #expect(result.exitStatus == 0)
  }

  /// A scene filter that names no scene is a script error, not a filter that never matches (so
  /// an `expect_no_calls` with a typo would pass); a scene that never connected is not unattached.
  @Test func aSceneFilterOrNumberThatNamesNoSceneIsCaught() throws {
    let head = "scenario { app = \"app.lua\", ios = 17, device = \"ipad\" }\nlaunch()\n"
    for pattern in ["Scene#x.sceneDidBecomeActive", "scene#2.sceneDidBecomeActive", "Scene#0.sceneDidBecomeActive", "Scene#.sceneDidBecomeActive"] {
      #expect(try error(head + "expect_no_calls { \"\(pattern)\" }\n").hasSuffix(
        "s.lua:3: expect_no_calls: \"\(pattern)\": a scene is named Scene#n. before the callback, n from 1 (\"Scene#2.sceneDidBecomeActive\")"))
    }
    let run = try runScripts(app: Self.app, scenario: head + "expect_state(\"unattached\", 2)\n")
    #expect(run.result.exitStatus == 1)
    let checked = run.events.compactMap { e -> String? in
      if case let .expectationChecked(_, passed, message, _) = e.body { return "\(passed) \(message)" } else { return nil }
    }
    #expect(checked == ["false expected Scene#2 unattached, but no Scene#2 has connected"])
  }

  // MARK: - The app's requests

  /// The notes a run made under `name`.
  static func notes(_ events: [Event], _ name: String) -> [String] {
    events.compactMap { if case let .noted(n, message, _) = $0.body, n == name { return message } else { return nil } }
  }

  /// Every window that becomes active asks for another.
  static let windowsAskingForWindows = """
    app { root = "Editor", multipleScenes = true }
    controller "Editor" {}
    function SceneDelegate.sceneDidBecomeActive(scene)
      UIApplication.shared:requestSceneSessionActivation { activity = "more" }
    end
    """

  /// A window that asks for another from its own activation opens 64, then UIKit denies the
  /// rest: the run ends (it looped for ever at one virtual instant before).
  @Test func windowsAskingForWindowsStopAtTheServedLimit() throws {
    let run = try runScripts(app: Self.windowsAskingForWindows, scenario: "scenario { app = \"app.lua\", ios = 17, device = \"ipad\" }\nlaunch()\nexpect_state(\"active\", 65)\n")
    #expect(run.result.exitStatus == 0, "\(run.result.error ?? "")")
    #expect(run.result.state.scenesConnected == 65)
    #expect(Self.notes(run.events, "sceneRequestDenied") == [
      "UIApplication.requestSceneSessionActivation denied: 64 scene requests were served since the last verb, and the app keeps asking",
    ])
  }

  /// An app that asks for a window from `sceneDidEnterBackground` after `home()` stays away:
  /// UIKit brings a window forward only for an app on screen.
  @Test(arguments: versions)
  func aBackgroundAppCannotBringItselfBack(ios: Int) throws {
    let run = try runScripts(app: """
      app { root = "Editor", multipleScenes = true }
      controller "Editor" {}
      function SceneDelegate.sceneDidEnterBackground(scene)
        UIApplication.shared:requestSceneSessionActivation {}
      end
      """, scenario: "scenario { app = \"app.lua\", ios = \(ios), device = \"ipad\" }\nlaunch()\nhome()\nexpect_state(\"suspended\")\n")
    #expect(run.result.exitStatus == 0, "\(run.result.error ?? "")")
    #expect(run.result.state.scenesConnected == 1)
    #expect(Self.notes(run.events, "sceneRequestDenied") == ["UIApplication.requestSceneSessionActivation denied: no window of the app is in the foreground"])
  }

  /// A closed window's session is discarded: asking to activate it is refused at the app's line.
  @Test func aClosedWindowsSessionCannotBeActivated() throws {
    let run = try runScripts(app: """
      app { root = "Editor", multipleScenes = true }
      controller "Editor" { actions = { ask = function(vc) UIApplication.shared:requestSceneSessionActivation { session = 1 } end } }
      """, scenario: "scenario { app = \"app.lua\", ios = 17, device = \"ipad\" }\nlaunch()\nopen_window()\nclose_window(1)\nact(\"ask\")\nexpect_terminated(\"crash\")\n")
    #expect(run.result.exitStatus == 0, "\(run.result.error ?? "")")
    let folder = (run.scenarioPath as NSString).deletingLastPathComponent
    #expect(run.result.state.terminations.map(\.description) == [folder + "/app.lua:2: UIApplication.requestSceneSessionActivation: no window 1 is open (open: 2 (Scene#2))"])
  }


  static let requestingApp = """
    app { root = "Editor", multipleScenes = true }
    controller "Editor" { actions = {
      close = function(vc) UIApplication.shared:requestSceneSessionDestruction(2) end,
      ask = function(vc, n) UIApplication.shared:requestSceneSessionActivation { session = n } end,
    } }
    """

  @Test(arguments: versions)
  func theAppClosesAWindow(ios: Int) throws {
    let (result, lines) = try run("""
      launch()
      open_window()
      print("mark")
      act("close")
      expect_state("background", 1)
      """, ios: ios, app: Self.requestingApp)
    #expect(lines == ["Editor#2.actions"] + Self.closingTheActiveSecondWindow)
    #expect(result.exitStatus == 0)
  }

  /// A session whose scene UIKit released reconnects on the app's request: `willConnectTo`
  /// without `configurationForConnecting` (W3), frontmost; the window on screen leaves.
  @Test(arguments: versions)
  func theAppReactivatesAReleasedScenesSession(ios: Int) throws {
    let (result, lines) = try run("""
      launch()
      open_window()
      disconnect_scene(1)
      print("mark")
      act("ask", 1)
      expect_state("active", 3)
      expect_state("background", 2)
      """, ios: ios, app: Self.requestingApp)
    #expect(lines == [
      "Editor#2.actions", "+Scene#3", "Scene#3.SceneDelegate.willConnectTo", "Editor#3.viewDidLoad", "Editor#3.viewWillAppear",
      "Scene#3.SceneDelegate.sceneWillEnterForeground", "Scene#3.SceneDelegate.sceneDidBecomeActive", "Editor#3.viewDidAppear",
      "Scene#2.SceneDelegate.sceneWillResignActive", "Scene#2.SceneDelegate.stateRestorationActivity",
      "Scene#2.SceneDelegate.sceneDidEnterBackground", "Editor#2.traitCollectionDidChange", "Editor#2.traitCollectionDidChange",
    ])
    #expect(result.exitStatus == 0)
  }

  @Test(arguments: [
    ("act(\"ask\", 5)", "device = \"ipad\"", "UIApplication.requestSceneSessionActivation: no window 5 is open (open: 1 (Scene#1))"),
    ("act(\"ask\", 1)", "device = \"iphone\"",
     "UIApplication.requestSceneSessionActivation: windows are an iPad's with scenes (scenario { device = \"ipad\" })"),
  ])
  func aRequestUIKitWouldNotServeIsALuaErrorAtTheAppsLine(_ verb: String, _ device: String, _ message: String) throws {
    let run = try runScripts(app: Self.requestingApp, scenario: """
      scenario { app = "app.lua", \(device) }
      launch()
      \(verb)
      expect_terminated("crash")
      """)
    let crashes = run.events.compactMap { e -> String? in if case let .crashed(_, _, m, _) = e.body { return m } else { return nil } }
    #expect(crashes.count == 1 && crashes[0].hasSuffix("app.lua:4: " + message), "\(crashes)")
  }

  @Test func aNewWindowWithIPadWindowing26LeavesTheFirstActive() throws {
    let (result, lines) = try run("launch()\nprint(\"mark\")\nopen_window()\nexpect_state(\"active\", 1)\n", ios: 26,
                                  knobs: "ipadWindowing26 = true")
    #expect(Array(lines.suffix(3)) == ["Editor#2.viewDidAppear", "Editor#1.traitCollectionDidChange", "Editor#2.traitCollectionDidChange"])
    #expect(!lines.contains("Scene#1.SceneDelegate.sceneWillResignActive"))
    #expect(result.exitStatus == 0)
  }
}
