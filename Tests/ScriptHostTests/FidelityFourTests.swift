import Foundation
import JSON
import Lifecycle
import Testing
@testable import ScriptHost

// Issue 45, "Fidelity IV": behaviours real iOS does not produce, each pinned with the source
// that contradicts the old model (docs/model.md's keys): a closed window's activity (S101, T108,
// S-discard), a refused window request (S137, S-multi), a continued task that cannot start at
// once (S142), and two MetricKit 27 categories (S140, S141).

@Suite struct FidelityFourTests {
  /// What the run recorded about restoration, session by session: `saved 2 bye`, `deleted 2 <why>`.
  private static func restorationChanges(_ events: [Event]) -> [String] {
    events.compactMap { e -> String? in
      guard case let .restorationChanged(change) = e.body else { return nil }
      switch change {
      case let .activitySaved(activity, session): return "saved \(session.map(String.init) ?? "-") \(activity["userInfo"]?["text"]?.stringValue ?? "")"
      case let .activityDeleted(why, session): return "deleted \(session.map(String.init) ?? "-") \(why)"
      default: return nil
      }
    }
  }

  /// The restoring editor of WindowSessionTests, whose windows can also ask to close themselves.
  static let closingApp = SeveralScenesTests.restoringApp.replacingOccurrences(
    of: "actions = { type = function(vc, text) typed[front] = text end }",
    with: "actions = { type = function(vc, text) typed[front] = text end, close = function(vc, n) UIApplication.shared:requestSceneSessionDestruction(n) end }")

  /// 1. Closing the window on screen asks for its activity as it leaves, then discards the
  /// session: the activity goes with it, and the next new window connects with none. A session's
  /// `stateRestorationActivity` is that session's (S101), and `didDiscardSceneSessions` comes
  /// before the session is discarded altogether (S-discard; T108). The old model handed "bye" on.
  @Test(arguments: ["close_window(2)", "act(\"close\", 2)"])
  func closingTheWindowOnScreenDeletesItsActivity(close: String) throws {
    #expect(Self.closingApp != SeveralScenesTests.restoringApp)
    let run = try runScripts(app: Self.closingApp, scenario: """
      scenario { app = "app.lua", ios = 17, device = "ipad" }
      launch()
      open_window()
      act("type", "bye")
      \(close)
      focus(1)
      open_window()
      """)
    #expect(run.result.exitStatus == 0, "\(run.result.error ?? "")")
    #expect(Self.restorationChanges(run.events) == [
      "saved 2 bye", "deleted 2 the window was closed: its session was discarded",
    ])
    #expect(run.result.state.store["restored.Scene#3"] == .string("nothing"))
    #expect(run.result.state.sessions.map(\.number) == [1, 3])
    #expect(run.result.state.sessions.allSatisfy { $0.restorationActivity == nil })
    #expect(run.result.state.restorationActivityOfDiscardedSession == nil)
  }

  /// An editor whose action asks for a new window, with `handler` as the request's
  /// `errorHandler` (nil: none), and stores that the line after the request ran.
  private static func requestingApp(multipleScenes: Bool, handler: String?) -> String {
    let errorHandler = handler.map { ", errorHandler = \($0)" } ?? ""
    return """
      app { root = "Editor", multipleScenes = \(multipleScenes) }
      controller "Editor" { actions = { compose = function(vc)
        UIApplication.shared:requestSceneSessionActivation { activity = "compose"\(errorHandler) }
        store("next line", true)
      end } }
      """
  }

  /// What a run did about the app's scene request after `print("mark")`: the call, the
  /// callbacks and their returns, the denial note, crashes and scene connections.
  private static func requestLines(_ events: [Event]) -> [String] {
    var lines: [String] = []
    for event in events {
      switch event.body {
      case let .noted(name, message, _) where name == "print" && message == "mark": lines = []
      case let .appCalled(call, _): lines.append("call \(call.name)")
      case let .noted(name, message, _) where name == "sceneRequestDenied": lines.append("note \(message)")
      case let .callbackDelivered(cb, target, handled, _, arguments):
        lines.append("\(target).\(cb.signature)\(handled ? "" : " (not handled)")\(arguments.payload.map { " \($0.canonicalText)" } ?? "")")
      case let .returned(name, target, _, _, _): lines.append("← \(target).\(name)")
      case .crashed: lines.append("crash")
      case let .sceneConnected(scene, _): lines.append("+\(scene)")
      default: break
      }
    }
    return lines
  }

  /// 2. A new window the app cannot have: UIKit calls the request's errorHandler with
  /// `UISceneError.Code.multipleScenesNotSupported` once the code that asked has returned (the
  /// request is asynchronous; S137), the app goes on, and no scene connects, since UIKit never
  /// creates more than one scene for such an app (S-multi). Before: a Lua error, the app crashed.
  @Test(arguments: [
    ("device = \"ipad\"", false, "the app does not declare app { multipleScenes = true } (UIApplicationSupportsMultipleScenes)"),
    ("device = \"iphone\"", true, "an iPhone shows one scene of an app"),
    ("scenes = false", false, "the app does not use scenes"),
  ])
  func aSecondWindowTheAppCannotHaveCallsItsErrorHandler(device: String, multipleScenes: Bool, why: String) throws {
    let run = try Self.composeOnce(app: Self.requestingApp(multipleScenes: multipleScenes,
                                                           handler: "function(err) store(\"error\", err) end"), device)
    #expect(Self.requestLines(run.events) == Self.requestReturned + [
      "note UIApplication.requestSceneSessionActivation denied: multipleScenesNotSupported: \(why)",
      "SceneRequest#1.errorHandler(_:) {\"error\":\"multipleScenesNotSupported\"}", "call store", "← SceneRequest#1.errorHandler(_:)",
    ])
    #expect(run.result.state.store["error"] == .string("multipleScenesNotSupported"))
    #expect(run.result.state.store["next line"] == .bool(true))
    #expect(run.result.state.scenes.count == (device == "scenes = false" ? 0 : 1) && run.result.state.terminations.isEmpty)
  }

  /// Without an errorHandler the denial is the note alone; the user's `open_window` on the same
  /// app stays a script error at its line: a user cannot open a second window there.
  @Test func withoutAnErrorHandlerOnlyTheNoteAndTheUsersOpenWindowStaysAScriptError() throws {
    let app = Self.requestingApp(multipleScenes: false, handler: nil)
    let run = try Self.composeOnce(app: app, "device = \"ipad\"")
    #expect(Self.requestLines(run.events) == Self.requestReturned + [
      "note UIApplication.requestSceneSessionActivation denied: multipleScenesNotSupported: the app does not declare app { multipleScenes = true } (UIApplicationSupportsMultipleScenes)",
    ])
    let user = try runScripts(app: app, scenario: "scenario { app = \"app.lua\", ios = 17, device = \"ipad\" }\nlaunch()\nopen_window()\n")
    #expect(user.result.exitStatus == 2)
    #expect(user.result.error?.hasSuffix("s.lua:3: open_window(): a second window needs app { multipleScenes = true } (state: active)") == true,
            "\(user.result.error ?? "")")
  }

  /// The user launches `app` on iOS 17 with `declared` in the scenario and taps Compose once;
  /// the run must pass (the app still active).
  private static func composeOnce(app: String, _ declared: String) throws -> (result: RunResult, events: [Event], scenarioPath: String) {
    let run = try runScripts(app: app, scenario: """
      scenario { app = "app.lua", ios = 17, \(declared) }
      launch()
      print("mark")
      act("compose")
      expect_state("active")
      """)
    #expect(run.result.exitStatus == 0, "\(run.result.error ?? "")")
    return run
  }

  /// The action asks for a window, runs its next line and returns before UIKit answers.
  private static let requestReturned = [
    "Editor#1.action(_:) {\"action\":\"compose\",\"arguments\":[]}", "call UIApplication.requestSceneSessionActivation", "call store",
    "← Editor#1.action(_:)",
  ]

  /// 3. A continued request with strategy `fail` that cannot begin now (another runs) answers
  /// `false, "immediateRunIneligible"` (S142); `unavailable` means background work is off.
  @Test func aFailRequestThatCannotStartNowIsImmediateRunIneligible() throws {
    let run = try runScripts(app: """
      app { root = "Home", bgTaskIdentifiers = { "com.example.export.*" } }
      BGTaskScheduler:register("com.example.export.1", function(task) end)
      BGTaskScheduler:register("com.example.export.2", function(task) end)
      controller "Home" { actions = { export = function(vc, n, strategy)
        local ok, err = BGTaskScheduler:submit { id = "com.example.export." .. n, kind = "continued",
          title = "Exporting", subtitle = "", strategy = strategy }
        store("submit " .. n, ok and "pending" or err)
      end } }
      """, scenario: """
      scenario { app = "app.lua", ios = 26 }
      launch()
      act("export", 1, "fail")
      act("export", 2, "fail")
      """)
    #expect(run.result.exitStatus == 0, "\(run.result.error ?? "")")
    #expect(run.result.state.store["submit 1"] == .string("pending"))
    #expect(run.result.state.store["submit 2"] == .string("immediateRunIneligible"))
    let answers = run.events.compactMap { e -> String? in
      if case let .appCalled(.submitBGTask(request, result), _) = e.body { return "\(request.identifier) \(result.rawValue)" }
      return nil
    }
    #expect(answers == ["com.example.export.1 pending", "com.example.export.2 immediateRunIneligible"])
  }

  /// 4. 0xdead10cc is MetricKit 27's `fileLock`: "terminated while suspended for holding file
  /// locks" (S140, S72), in the background.
  @Test func theLockedFileKillIsFileLock() throws {
    let run = try runScripts(app: """
      app { root = "Home" }
      controller "Home" {}
      function SceneDelegate.sceneDidEnterBackground(scene) hold_lock("db", { shared = true }) end
      """, scenario: "scenario { app = \"app.lua\", ios = 27 }\nlaunch()\nhome()\nexpect_terminated(\"suspended_with_locked_file\")\n")
    #expect(run.result.exitStatus == 0, "\(run.result.error ?? "")")
    #expect(Self.categories(run.result.state) == [#"{"reason":"suspended_with_locked_file","code":"0xdead10cc","category":"fileLock","foreground":false}"#])
  }

  /// 5. An uncaught NSInternalInconsistencyException (a continued submit with no launch handler,
  /// a launch handler registered twice) is `abnormal`: "typically due to an uncaught exception or
  /// call to abort()" (S141); an error in app code stays `illegalInstruction` unless it names
  /// such an exception; the mandate's trap (EXC_BREAKPOINT) stays `illegalInstruction`.
  @Test(arguments: [
    ("BGTaskScheduler:register(\"com.example.r\", function() end)\nBGTaskScheduler:register(\"com.example.r\", function() end)", "abnormal"),
    ("error(\"NSInvalidArgumentException: unrecognized selector\")", "abnormal"),
    ("error(\"NSInvalidArgumentException: unrecognized selector\", 0)", "abnormal"),
    ("error(\"index out of range: NSRangeException: 3\")", "illegalInstruction"),
    ("error(\"boom\")", "illegalInstruction"),
  ])
  func anUncaughtExceptionIsAbnormal(code: String, category: String) throws {
    let run = try runScripts(app: """
      app { root = "Home", bgTaskIdentifiers = { "com.example.r" } }
      controller "Home" {}
      function AppDelegate.didFinishLaunchingWithOptions(app, options)
        \(code)
        return true
      end
      """, scenario: "scenario { app = \"app.lua\", ios = 27 }\nlaunch()\nexpect_terminated(\"crash\")\n")
    #expect(run.result.exitStatus == 0, "\(run.result.error ?? "")")
    let terminations = Self.categories(run.result.state)
    #expect(terminations.count == 1 && terminations[0].contains(#""category":"\#(category)","foreground":true}"#), "\(terminations)")
  }

  @Test func theMandatesTrapStaysIllegalInstruction() throws {
    let run = try runScripts(app: "app { root = \"Home\", sdk = 27 }\ncontroller \"Home\" {}\n",
                             scenario: "scenario { app = \"app.lua\", ios = 27, scenes = false }\nlaunch()\nexpect_terminated(\"crash\")\n")
    #expect(run.result.exitStatus == 0, "\(run.result.error ?? "")")
    #expect(Self.categories(run.result.state) == [
      #"{"reason":"crash","code":"EXC_BREAKPOINT","category":"illegalInstruction","foreground":true}"#,
    ])
  }

  /// Each termination of the run as the outcome annotates it, without its description.
  static func categories(_ state: LifecycleState) -> [String] {
    let outcome = state.annotated(outcome: Simulator.outcome(of: state))
    return (outcome["terminations"]?.arrayValue ?? []).map { t in
      guard case let .object(fields) = t else { return t.canonicalText }
      return JSONValue.object(fields.filter { $0.0 != "description" }).canonicalText
    }
  }
}
