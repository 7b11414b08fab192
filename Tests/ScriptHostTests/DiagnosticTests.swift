import Testing
@testable import Lifecycle
import LifecycleLog
@testable import ScriptHost

/// The diagnostics (notes with a stable code): which run gets which, once per run and handler,
/// their place in the outcome, and `strict`.
@Suite struct DiagnosticTests {
  /// An app that keeps the app delegate's pre-scene methods beside the scene delegate's.
  static func app(_ extra: String = "") -> String {
    """
    app { root = "Main"\(extra) }
    controller "Main" {}
    function AppDelegate.applicationDidEnterBackground(application) end
    function AppDelegate.applicationDidBecomeActive(application) end
    function AppDelegate.openURL(application, url) return true end
    function SceneDelegate.sceneDidEnterBackground(scene) end

    """
  }

  private func coded(_ events: [Event]) -> [String] {
    events.compactMap { if case let .noted(name, message, code?) = $0.body { "\(code) \(name): \(message)" } else { nil } }
  }

  @Test func aSceneRunNamesEachAppDelegateHandlerUIKitSkipsOnceAndItsReplacement() throws {
    let run = try runScripts(app: Self.app(), scenario: """
      scenario { app = "app.lua", ios = 17 }
      launch()
      app_switcher()
      force_quit()
      launch()
      expect_state("active")

      """)
    #expect(coded(run.events) == [
      "handler_never_called AppDelegate.applicationDidEnterBackground: AppDelegate.applicationDidEnterBackground(_:) is never called "
        + "in a scene app: UIKit calls SceneDelegate.sceneDidEnterBackground(_:) instead",
      "handler_never_called AppDelegate.applicationDidBecomeActive: AppDelegate.applicationDidBecomeActive(_:) is never called "
        + "in a scene app: UIKit calls SceneDelegate.sceneDidBecomeActive(_:) instead",
      "handler_never_called AppDelegate.openURL: AppDelegate.application(_:open:options:) is never called "
        + "in a scene app: UIKit calls SceneDelegate.scene(_:openURLContexts:) instead",
    ])
    #expect(run.result.exitStatus == 0)
    #expect(run.result.outcome["diagnostics"]?.canonicalText == #"[{"code":"handler_never_called","message":"AppDelegate.applicationDidEnterBackground(_:) is never called in a scene app: UIKit calls SceneDelegate.sceneDidEnterBackground(_:) instead","handler":"AppDelegate.applicationDidEnterBackground"},{"code":"handler_never_called","message":"AppDelegate.applicationDidBecomeActive(_:) is never called in a scene app: UIKit calls SceneDelegate.sceneDidBecomeActive(_:) instead","handler":"AppDelegate.applicationDidBecomeActive"},{"code":"handler_never_called","message":"AppDelegate.application(_:open:options:) is never called in a scene app: UIKit calls SceneDelegate.scene(_:openURLContexts:) instead","handler":"AppDelegate.openURL"}]"#)
  }

  @Test func anAppThatSupportsIOS12GetsNoHandlerDiagnostic() throws {
    for scenes in ["true", "false"] {
      let run = try runScripts(app: Self.app(", minimumIOS = 12"), scenario: """
        scenario { app = "app.lua", ios = 26, scenes = \(scenes) }
        launch()
        expect_state("active")

        """)
      #expect(coded(run.events).filter { !$0.hasPrefix("scene_lifecycle_required") } == [])
      // Only iOS 26's note on the sceneless run, which is about the manifest, not a handler.
      let codes = run.result.outcome["diagnostics"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
      #expect(codes == (scenes == "true" ? [] : ["scene_lifecycle_required"]))
    }
  }

  @Test func aScenelessRunAtSDK26NamesTheDeprecatedMethodsOnlyAndNeverTheSceneDelegates() throws {
    let run = try runScripts(app: Self.app(), scenario: """
      scenario { app = "app.lua", ios = 26, scenes = false }
      launch()
      expect_state("active")

      """)
    #expect(coded(run.events) == [
      "scene_lifecycle_required sceneLifecycleRequired: UIScene lifecycle will soon be required. Failure to adopt will result "
        + "in an assert in the future.",
      "deprecated_in_sdk AppDelegate.applicationDidBecomeActive: AppDelegate.applicationDidBecomeActive(_:) is deprecated in the "
        + "iOS 26 SDK: adopt scenes and implement SceneDelegate.sceneDidBecomeActive(_:)",
      "deprecated_in_sdk AppDelegate.openURL: AppDelegate.application(_:open:options:) is deprecated in the "
        + "iOS 26 SDK: adopt scenes and implement SceneDelegate.scene(_:openURLContexts:)",
    ])
    // An older SDK deprecates none of them.
    let older = try runScripts(app: Self.app(), scenario: "scenario { app = \"app.lua\", ios = 18, scenes = false }\nlaunch()\nexpect_state(\"active\")\n")
    #expect(coded(older.events) == [])
  }

  static let unended = """
    app { root = "Main" }
    controller "Main" {}
    function SceneDelegate.sceneDidEnterBackground(scene)
      UIApplication.shared:beginBackgroundTask("upload", function() store("expired", true) end)
    end

    """

  @Test func aTaskStillOpenAfterItsExpirationHandlerIsNotedAtThatInstant() throws {
    let run = try runScripts(app: Self.unended, scenario: """
      scenario { app = "app.lua", ios = 17 }
      launch()
      home()
      advance(40)
      expect_terminated("background_task_expired")

      """)
    #expect(coded(run.events) == [
      "task_open_after_expiration taskOpenAfterExpiration: background task \"upload\" (1) is still not ended after its expiration handler returned",
    ])
    // The note comes right after the handler returned, and the kill only at the allowance's end.
    let kinds = run.events.map(\.body.kind)
    let noteIndex = try #require(run.events.firstIndex { $0.body.kind == .note })
    #expect(kinds[noteIndex - 1] == .return)
    let kill = try #require(run.events.first { if case .terminated = $0.body { true } else { false } })
    #expect(kill.t - run.events[noteIndex].t == 5_000_000)
  }

  @Test func withTheKillKnobTheTaskLeftOpenEndsTheAppAtOnce() throws {
    let run = try runScripts(app: Self.unended, scenario: """
      scenario { app = "app.lua", ios = 17, knobs = { unendedTaskAfterExpiration = "kill" } }
      launch()
      home()
      advance(40)
      expect_terminated("background_task_expired")

      """)
    let noteIndex = try #require(run.events.firstIndex { $0.body.kind == .note })
    let next = run.events[noteIndex + 1]
    guard case let .terminated(t) = next.body else { Issue.record("no termination after the note"); return }
    #expect(t.reason == .backgroundTaskExpired && next.t == run.events[noteIndex].t)
    #expect(t.description == "background task \"upload\" (1) was not ended when its expiration handler returned")
    #expect(run.result.exitStatus == 0)
  }

  @Test func aScenarioThatChecksNothingRecordsTheDiagnosticLast() throws {
    let run = try runScripts(app: "app { root = \"Main\" }\ncontroller \"Main\" {}\n", scenario: "scenario { app = \"app.lua\" }\nlaunch()\n")
    #expect(run.events.last?.body == .noted(name: "noExpectations", message: "\(run.scenarioPath) checks nothing (no expect_* call ran)",
                                             code: "no_expectations"))
    #expect(run.result.state.diagnostics.map(\.code) == ["no_expectations"])
    #expect(run.result.exitStatus == 0 && run.result.failedDiagnostic == nil)
  }

  @Test func strictFailsOnADiagnosticNoExpectationNamed() throws {
    let strict = try runScripts(app: Self.app(), scenario: """
      scenario { app = "app.lua", ios = 17, strict = true }
      launch()
      expect_state("active")

      """)
    #expect(strict.result.exitStatus == 1 && strict.result.failedDiagnostic == "handler_never_called")
    let named = try runScripts(app: Self.app(), scenario: """
      scenario { app = "app.lua", ios = 17, strict = true }
      launch()
      expect_diagnostic("handler_never_called")
      expect_diagnostic("deprecated_in_sdk")

      """)
    #expect(named.result.exitStatus == 1 && named.result.failedDiagnostic == nil)
    let messages = named.events.compactMap { if case let .expectationChecked(name, passed, message, _) = $0.body { "\(name) \(passed) \(message)" } else { nil } }
    #expect(messages == [
      "expect_diagnostic true diagnostic handler_never_called: AppDelegate.applicationDidEnterBackground(_:) is never called "
        + "in a scene app: UIKit calls SceneDelegate.sceneDidEnterBackground(_:) instead",
      "expect_diagnostic false expected diagnostic deprecated_in_sdk, but the run recorded handler_never_called",
    ])
  }
}
