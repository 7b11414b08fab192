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
