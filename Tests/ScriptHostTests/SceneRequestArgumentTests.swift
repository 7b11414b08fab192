import Foundation
import Lifecycle
import Testing
@testable import ScriptHost

/// The arguments of `UIApplication.shared:requestSceneSessionActivation{…}` and
/// `:requestSceneSessionDestruction(n)`, read as every app call reads its own: a value of the
/// wrong kind, or a key the request table does not have (a typo such as `sesion`), is a Lua error
/// at the app's line naming the call; an argument after the ones a call takes is ignored, as
/// `work`, `store`, `log` and `UIApplication.shared:endBackgroundTask` ignore theirs.
@Suite struct SceneRequestArgumentTests {
  /// The messages of the crashes in a run on iPad where the first window's user action runs
  /// `call` with a second window open, and the run's result.
  private func crashes(_ call: String, then verbs: String = "expect_terminated(\"crash\")") throws -> (RunResult, [String]) {
    let run = try runScripts(app: """
      app { root = "Editor", multipleScenes = true }
      controller "Editor" { actions = { ask = function(vc)
        \(call)
      end } }
      """, scenario: """
      scenario { app = "app.lua", ios = 17, device = "ipad" }
      launch()
      open_window()
      act("ask")
      \(verbs)
      """)
    let folder = (run.scenarioPath as NSString).deletingLastPathComponent
    let messages = run.events.compactMap { e -> String? in
      guard case let .crashed(_, _, message, _) = e.body else { return nil }
      return message.hasPrefix(folder + "/") ? String(message.dropFirst(folder.count + 1)) : message
    }
    return (run.result, messages)
  }

  @Test(arguments: [
    ("UIApplication.shared:requestSceneSessionActivation { sesion = 1 }",
     "requestSceneSessionActivation: unknown key \"sesion\" (did you mean session?); the keys are activity, errorHandler, session"),
    ("UIApplication.shared:requestSceneSessionActivation { 1 }",
     "requestSceneSessionActivation: unexpected positional entry [1]; options are named: activity, errorHandler, session"),
    ("UIApplication.shared:requestSceneSessionActivation { errorHandler = \"log\" }",
     "requestSceneSessionActivation: errorHandler must be a function, not \"log\""),
    ("UIApplication.shared:requestSceneSessionActivation { session = \"1\" }",
     "requestSceneSessionActivation: session must be a window number (1 names the window Scene#1 opened), not \"1\""),
    ("UIApplication.shared:requestSceneSessionActivation { session = 0 }",
     "requestSceneSessionActivation: session must be a window number (1 names the window Scene#1 opened), not 0"),
    ("UIApplication.shared:requestSceneSessionActivation { activity = 3 }",
     "requestSceneSessionActivation: activity must be a string, not 3"),
    ("UIApplication.shared:requestSceneSessionActivation(1)",
     "requestSceneSessionActivation: expected a table ({ session = n, activity = \"compose\" }), not 1"),
    ("UIApplication.shared.requestSceneSessionActivation {}",
     "requestSceneSessionActivation: call it with ':' — UIApplication.shared:requestSceneSessionActivation(…), not UIApplication.shared.requestSceneSessionActivation(…)"),
    ("UIApplication.shared:requestSceneSessionDestruction(1.5)",
     "requestSceneSessionDestruction: expected a window number (1 names the window Scene#1 opened), not 1.5"),
    ("UIApplication.shared:requestSceneSessionDestruction { session = 2 }",
     "requestSceneSessionDestruction: expected a window number (1 names the window Scene#1 opened), not a table"),
    ("UIApplication.shared.requestSceneSessionDestruction(2)",
     "requestSceneSessionDestruction: call it with ':' — UIApplication.shared:requestSceneSessionDestruction(…), not UIApplication.shared.requestSceneSessionDestruction(…)"),
  ])
  func aWrongArgumentIsALuaErrorAtTheAppsLine(_ call: String, _ message: String) throws {
    let (result, messages) = try crashes(call)
    #expect(messages == ["app.lua:3: " + message])
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
  }

  /// An argument after the ones a call takes is ignored, as every app call ignores it: the
  /// request is served as without it.
  @Test(arguments: [
    ("UIApplication.shared:requestSceneSessionDestruction(2, 3)", "expect_state(\"background\", 1)\nexpect_state(\"suspended\")"),
    ("UIApplication.shared:requestSceneSessionActivation({ session = 1 }, \"x\")", "expect_state(\"active\", 1)\nexpect_state(\"background\", 2)"),
  ])
  func anArgumentAfterTheOnesACallTakesIsIgnored(_ call: String, _ expectations: String) throws {
    let (result, messages) = try crashes(call, then: expectations)
    #expect(messages.isEmpty)
    // Exit 0: both expectations held.
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
  }
}
