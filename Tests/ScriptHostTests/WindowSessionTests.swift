import Foundation
import JSON
import Lifecycle
import Testing
@testable import ScriptHost

/// Windows as sessions on iPad: state restoration and identity per window (docs/model.md §17, §19): each
/// session keeps the activity its own scene saved (S101, S102) and gives it back to whichever
/// scene reconnects it, after a relaunch or a release; a window keeps its number for the verbs
/// while its scene's number changes; a closed window's activity goes with its session (T108).
extension SeveralScenesTests {
  /// Saves each window's typed text in its restoration activity, and stores what a connecting
  /// scene finds in its session under `restored.<scene>`.
  static let restoringApp = """
    app { root = "Editor", multipleScenes = true }
    local typed, front = {}, nil
    function SceneDelegate.sceneDidBecomeActive(scene) front = scene.id end
    function SceneDelegate.stateRestorationActivity(scene)
      if typed[scene.id] then return { activityType = "edit", userInfo = { text = typed[scene.id] } } end
    end
    function SceneDelegate.willConnectTo(scene, session, options)
      local saved = session.stateRestorationActivity
      store("restored." .. scene.id, saved and saved.userInfo.text or "nothing")
    end
    controller "Editor" { actions = { type = function(vc, text) typed[front] = text end } }
    """

  /// Two windows, each with its text, home, then jetsam: both sessions are kept.
  static let twoWindowsReclaimed = """
    launch()
    act("type", "hello")
    open_window()
    act("type", "bye")
    home()
    memory_pressure()
    expect_terminated("jetsam")
    """

  /// The relaunch reconnects the window that was frontmost (2) with its own activity; `focus(1)`
  /// reconnects window 1, unattached until then, with its own: no configuration, and from
  /// iOS 15 `restoreInteractionStateWith` between entering the foreground and activation.
  @Test(arguments: versions)
  func eachWindowComesBackWithItsOwnActivityAfterJetsam(ios: Int) throws {
    let (result, lines) = try run(Self.twoWindowsReclaimed + """
      launch()
      expect_state("active", 3)
      expect_state("unattached", 1)
      print("mark")
      focus(1)
      expect_state("active", 4)
      expect_state("background", 3)
      expect_calls { "Scene#4.willConnectTo" }
      """, ios: ios, app: Self.restoringApp)
    let restore = ios >= 15 ? ["Scene#4.SceneDelegate.restoreInteractionStateWith"] : []
    #expect(lines == [
      "+Scene#4", "Scene#4.SceneDelegate.willConnectTo", "Editor#4.viewDidLoad", "Editor#4.viewWillAppear",
      "Scene#4.SceneDelegate.sceneWillEnterForeground"] + restore + [
      "Scene#4.SceneDelegate.sceneDidBecomeActive", "Editor#4.viewDidAppear",
      "Scene#3.SceneDelegate.sceneWillResignActive", "Scene#3.SceneDelegate.stateRestorationActivity",
      "Scene#3.SceneDelegate.sceneDidEnterBackground", "Editor#3.traitCollectionDidChange", "Editor#3.traitCollectionDidChange",
    ])
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(result.state.store["restored.Scene#3"] == .string("bye") && result.state.store["restored.Scene#4"] == .string("hello"))
    #expect(result.state.sessions.map(\.number) == [2, 1])
    #expect(result.state.sessions.map(\.scene) == ["Scene#3", "Scene#4"])
  }

  /// iPadOS 26 windows (T118): the window reconnected by `focus(1)` comes with its own activity
  /// and the window in front stays active; only the two windows' controllers hear of it.
  @Test(arguments: [26, 27])
  func windowing26ReconnectsAReleasedWindowBesideTheActiveOne(ios: Int) throws {
    let (result, lines) = try run(Self.twoWindowsReclaimed + """
      launch()
      print("mark")
      focus(1)
      expect_state("active", 4)
      expect_state("active", 3)
      """, ios: ios, knobs: "ipadWindowing26 = true", app: Self.restoringApp)
    #expect(lines == [
      "+Scene#4", "Scene#4.SceneDelegate.willConnectTo", "Editor#4.viewDidLoad", "Editor#4.viewWillAppear",
      "Scene#4.SceneDelegate.sceneWillEnterForeground", "Scene#4.SceneDelegate.restoreInteractionStateWith",
      "Scene#4.SceneDelegate.sceneDidBecomeActive", "Editor#4.viewDidAppear",
      "Editor#3.traitCollectionDidChange", "Editor#4.traitCollectionDidChange",
    ])
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(result.state.store["restored.Scene#3"] == .string("bye") && result.state.store["restored.Scene#4"] == .string("hello"))
  }

  /// After jetsam, `focus(1)` on the app not running launches it into window 1: it reconnects
  /// first, with its activity, and window 2 stays unattached.
  /// `expect_state(s, n)` names scenes as the log does: window 1 is held by `Scene#3`, and the
  /// released `Scene#2` is unattached.
  @Test func focusingAReleasedWindowOfAnAppNotRunningLaunchesIntoIt() throws {
    let run = try runScripts(app: Self.restoringApp, scenario: """
      scenario { app = "app.lua", ios = 17, device = "ipad" }
      \(Self.twoWindowsReclaimed)
      focus(1)
      expect_state("active", 3)
      expect_state("unattached", 2)
      expect_no_calls { "configurationForConnecting" }
      """)
    #expect(run.result.exitStatus == 0, "\(run.result.error ?? "")")
    #expect(run.result.state.store["restored.Scene#3"] == .string("hello"))
    let messages = run.events.compactMap { e -> String? in
      if case let .expectationChecked(name, _, message, _) = e.body, name == "expect_state" { return message } else { return nil }
    }
    #expect(messages == ["Scene#3 is active", "Scene#2 is unattached"])
    #expect(run.result.state.sessions.map(\.scene) == [nil, "Scene#3"])
  }

  /// A window the user closes loses its activity with its session; the other keeps its own, and
  /// a new window starts with nothing.
  @Test func aClosedWindowsActivityGoesWithItsSession() throws {
    let run = try runScripts(app: Self.restoringApp, scenario: """
      scenario { app = "app.lua", ios = 17, device = "ipad" }
      launch()
      act("type", "hello")
      open_window()
      act("type", "bye")
      focus(1)
      close_window(2)
      open_window()
      """)
    #expect(run.result.exitStatus == 0, "\(run.result.error ?? "")")
    let changes = run.events.compactMap { e -> String? in
      guard case let .restorationChanged(change) = e.body else { return nil }
      switch change {
      case let .activitySaved(activity, session): return "saved \(session.map(String.init) ?? "-") \(activity["userInfo"]?["text"]?.stringValue ?? "")"
      case let .activityDeleted(why, session): return "deleted \(session.map(String.init) ?? "-") \(why)"
      default: return nil
      }
    }
    #expect(changes == ["saved 1 hello", "saved 2 bye", "deleted 2 the window was closed: its session was discarded", "saved 1 hello"])
    #expect(run.result.state.store["restored.Scene#3"] == .string("nothing"))
    #expect(run.result.state.sessions.map(\.number) == [1, 3])
    #expect(run.result.state.sessions.map { $0.restorationActivity?["userInfo"]?["text"]?.stringValue } == ["hello", nil])
  }

  /// A one-scene log names no session; once two scenes were connected, every session change and
  /// restoration change names its window, and the trace says which.
  @Test func aChangeNamesItsWindowOnlyOnceTheAppHadTwoScenes() throws {
    let run = try runScripts(app: Self.restoringApp, scenario: """
      scenario { app = "app.lua", ios = 17, device = "ipad" }
      launch()
      act("type", "hello")
      home()
      launch()
      open_window()
      close_window(2)
      """)
    #expect(run.result.exitStatus == 0, "\(run.result.error ?? "")")
    let named = run.events.compactMap { e -> String? in
      switch e.body {
      case let .sceneSessionChanged(created, session): return "\(created ? "created" : "discarded") \(session.map(String.init) ?? "-")"
      case let .restorationChanged(.activitySaved(_, session)): return "saved \(session.map(String.init) ?? "-")"
      default: return nil
      }
    }
    #expect(named == ["created -", "saved -", "created -", "saved 1", "discarded 2"])
  }

  /// Bringing a window forward is the user taking the device, as `launch()` is: a processing task
  /// running in the background ends at once, its expiration handler first (S114).
  @Test func focusEndsAProcessingTask() throws {
    let (result, lines) = try run("""
      launch()
      open_window()
      home()
      power(true)
      bg_task("com.example.cleanup")
      print("mark")
      focus(1)
      expect_state("active", 1)
      """, app: """
      app { root = "Editor", multipleScenes = true, bgTaskIdentifiers = { "com.example.cleanup" } }
      controller "Editor" {}
      function AppDelegate.didFinishLaunchingWithOptions(application, options)
        BGTaskScheduler:register("com.example.cleanup", function(task)
          task.expirationHandler = function() task:setTaskCompleted(false) end
        end)
      end
      function SceneDelegate.sceneDidEnterBackground(scene)
        BGTaskScheduler:submit { id = "com.example.cleanup", kind = "processing", requiresExternalPower = true }
      end
      """)
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(lines.prefix(2) == ["BGTask#com.example.cleanup.expirationHandler", "Scene#1.SceneDelegate.sceneWillEnterForeground"])
  }

  /// An app that asks for several windows: two requests from one action, and a window closed
  /// then asked for again.
  static let askingApp = """
    app { root = "Editor", multipleScenes = true }
    controller "Editor" { actions = {
      both = function(vc, a, b)
        UIApplication.shared:requestSceneSessionActivation { session = a, activity = "a" }
        UIApplication.shared:requestSceneSessionActivation { session = b, activity = "b" }
      end,
      closeThenAsk = function(vc, n)
        UIApplication.shared:requestSceneSessionDestruction(n)
        UIApplication.shared:requestSceneSessionActivation { session = n }
      end,
    } }
    """

  /// Two released windows asked for from one action reconnect each to its own session, in the
  /// order asked (UIKit serves them once the action returns).
  @Test func twoRequestsReconnectTheWindowsTheyName() throws {
    let run = try runScripts(app: Self.askingApp, scenario: """
      scenario { app = "app.lua", ios = 17, device = "ipad" }
      launch()
      open_window()
      open_window()
      disconnect_scene(1)
      disconnect_scene(2)
      act("both", 1, 2)
      expect_state("active", 5)
      expect_state("background", 4)
      """)
    #expect(run.result.exitStatus == 0, "\(run.result.error ?? "")")
    #expect(run.result.state.sessions.map(\.number) == [3, 1, 2])
    #expect(run.result.state.sessions.map(\.scene) == ["Scene#3", "Scene#4", "Scene#5"])
    let connected = run.events.compactMap { e -> String? in
      if case let .sceneConnected(scene, session) = e.body { return "\(scene) \(session.map(String.init) ?? "-")" } else { return nil }
    }
    #expect(connected == ["Scene#1 -", "Scene#2 -", "Scene#3 -", "Scene#4 1", "Scene#5 2"])
  }

  /// A window closed by the same action that then asks for it is not served: no scene connects
  /// without a session.
  @Test func aWindowClosedBeforeItsRequestIsServedIsNotReconnected() throws {
    let run = try runScripts(app: Self.askingApp, scenario: """
      scenario { app = "app.lua", ios = 17, device = "ipad" }
      launch()
      open_window()
      focus(1)
      act("closeThenAsk", 2)
      expect_state("active", 1)
      """)
    #expect(run.result.exitStatus == 0, "\(run.result.error ?? "")")
    #expect(run.result.state.scenesConnected == 2 && run.result.state.sessions == [SceneSession(number: 1, scene: "Scene#1")])
    #expect(Self.notes(run.events, "sceneRequestDenied")
              == ["UIApplication.requestSceneSessionActivation denied: window 2 was closed before it was served"])
  }

  /// Knob `forceQuitKeepsRestoration` (a radar on iOS 15): the activity the next new session gets
  /// is the window in front's, even when another window had one.
  @Test func aForceQuitThatKeepsRestorationKeepsTheFrontWindowsActivity() throws {
    let (result, _) = try run("""
      launch()
      act("type", "one")
      open_window()
      app_switcher()
      force_quit()
      expect_state("not_running")
      launch()
      expect_calls { "configurationForConnecting" }
      """, knobs: "forceQuitKeepsRestoration = true", app: Self.restoringApp)
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(result.state.store["restored.Scene#3"] == .string("nothing"))
  }

  /// A window whose scene a relaunch left unattached is closed with no scene to disconnect: its
  /// session is discarded, and a running app hears of it at once.
  @Test func closingAnUnattachedWindowDiscardsItsSession() throws {
    let (result, lines) = try run(Self.twoWindowsReclaimed + """
      launch()
      print("mark")
      close_window(1)
      """, app: Self.restoringApp)
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(lines == ["AppDelegate.didDiscardSceneSessions"])
    #expect(result.state.sessions.map(\.number) == [2])
  }

  /// `launch()` brings back the window frontmost last, reconnecting it when the system had
  /// released its scene, even with another window's scene still connected.
  @Test func aLaunchReconnectsTheWindowInFrontWhenItsSceneWasReleased() throws {
    let (result, _) = try run("""
      launch()
      open_window()
      home()
      disconnect_scene(2)
      expect_state("suspended")
      launch()
      expect_state("active", 3)
      expect_state("background", 1)
      expect_no_calls { "configurationForConnecting" }
      """, app: Self.restoringApp)
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(result.state.sessions.map(\.scene) == ["Scene#1", "Scene#3"])
  }

  /// A suspended app brought forward by `focus(n)` first hears what was queued for its return,
  /// as with `launch()`: here a significant time change.
  @Test func focusDeliversWhatWasQueuedForTheForeground() throws {
    let (result, lines) = try run("""
      launch()
      open_window()
      home()
      time_change()
      print("mark")
      focus(1)
      """, knobs: "queuedTimeChangeDelivery = \"nextForeground\"")
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(lines.prefix(2) == ["app significantTimeChange", "AppDelegate.applicationSignificantTimeChange"])
  }

  /// An app keeps at most `sessionsMax` windows: past it, its request for another is denied and
  /// the user's `open_window` is refused at its line.
  @Test func anAppKeepsAtMostTheWindowsLifesimModels() throws {
    let run = try runScripts(app: Self.windowsAskingForWindows,
                             scenario: "scenario { app = \"app.lua\", ios = 17, device = \"ipad\" }\nlaunch()\nfor _ = 1, 16 do focus(1) end\nopen_window()\n")
    #expect(run.result.exitStatus == 2)
    #expect(run.result.error?.hasSuffix(
      "s.lua:4: open_window(): the app keeps 1024 windows, the most lifesim models: close_window(n) one first (state: active)") == true,
      "\(run.result.error ?? "")")
    #expect(run.result.state.sessions.count == LifecycleState.sessionsMax)
    #expect(Self.notes(run.events, "sceneRequestDenied").contains(
      "UIApplication.requestSceneSessionActivation denied: the app keeps 1024 windows, the most lifesim models"))
  }
}
