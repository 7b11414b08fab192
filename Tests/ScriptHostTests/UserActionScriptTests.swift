import Foundation
import Testing
import Lifecycle
@testable import ScriptHost

/// `act(name, …)` from Lua: the app's `actions` table, the values that reach the action, and
/// every refusal as a script error at the scenario's line.
@Suite struct UserActionScriptTests {
  static let editor = """
    app { name = "Editor", root = "Editor" }
    controller "Editor" {
      actions = {
        type = function(vc, ...) store("got", { vc.id, ... }); store("count", select("#", ...)) end,
        save = function(vc) store("saved", true) end,
        sync = function(vc) work(11) end,
      },
    }
    """

  /// Runs `scenario` (its first line is given: `scenario { app = "app.lua" }`) against `app`;
  /// the run, its events and the scenario's path.
  private static func run(_ verbs: String, app: String = editor) throws -> (RunResult, [Event], String) {
    try runScripts(app: app, scenario: "scenario { app = \"app.lua\" }\n" + verbs)
  }

  @Test func theValuesAfterTheNameReachTheActionAfterTheController() throws {
    let (result, events, _) = try Self.run("""
      launch()
      act("type", "hello", 2, 0.5, false)
      act("save")
      expect_calls { "Editor.actions", "Editor#1.action(_:)" }
      """)
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(result.state.store["got"] == .array([.string("Editor#1"), .string("hello"), .int(2), .double(0.5), .bool(false)]))
    #expect(result.state.store["count"] == .int(4))
    #expect(result.state.store["saved"] == .bool(true))
    let inputs = events.compactMap { e -> Input? in if case let .inputPerformed(i, _) = e.body, i.verb == "act" { return i }; return nil }
    #expect(inputs == [.act("type", arguments: [.string("hello"), .int(2), .double(0.5), .bool(false)]), .act("save", arguments: [])])
  }

  @Test func valuesThatAreNotStringsNumbersOrBooleansStopTheRunAtTheLine() throws {
    for (call, problem) in [
      (#"act("type", "a", {})"#, "act: argument 3 must be a string, a finite number or a boolean, not a table"),
      (#"act("type", nil, 1)"#, "act: argument 2 must be a string, a finite number or a boolean, not nil"),
      (#"act("type", 1/0)"#, "act: argument 2 must be a string, a finite number or a boolean, not inf"),
      (#"act("type", print)"#, "act: argument 2 must be a string, a finite number or a boolean, not a function"),
      (#"act(42)"#, "act: expected an action name (a string), not 42"),
      ("act(\"type\", " + String(repeating: "1, ", count: 64) + "1)",
       "act: at most 64 values may follow the action's name, not 65"),
    ] {
      let (result, _, path) = try Self.run("launch()\n\(call)\n")
      #expect(result.exitStatus == 2)
      #expect(result.error == "\(path):3: \(problem)", "\(call)")
    }
  }

  @Test func anUndeclaredActionOrAnAppThatIsAwayStopsTheRunNamingTheController() throws {
    let (misspelled, _, path) = try Self.run("launch()\nact(\"tpye\", \"x\")\n")
    #expect(misspelled.exitStatus == 2)
    #expect(misspelled.error == "\(path):3: act(): Editor#1 has no action \"tpye\" (did you mean type?); its actions: save, sync, type (state: active)")
    let (away, _, awayPath) = try Self.run("launch()\nhome()\nact(\"save\")\n")
    #expect(away.error == "\(awayPath):4: act(): the app must be active and frontmost (state: suspended)")
    #expect(away.state.store["saved"] == nil)
  }

  @Test func anActionThatBlocksTheMainThreadIsAWatchdogKillThatFailsTheRun() throws {
    let (result, _, _) = try Self.run("launch()\nact(\"sync\")\n")
    #expect(result.exitStatus == 1)
    #expect(result.state.terminations.map(\.description) == [
      "scene-update watchdog transgression: action(_:) blocked the main thread; exhausted real (wall clock) time allowance of 10.00 seconds",
    ])
  }

  @Test func theActionsTableMustMapNamesToFunctions() throws {
    let notATable = try Self.run("launch()\n", app: "app { root = \"Editor\" }\ncontroller \"Editor\" { actions = 5 }\n")
    #expect(notATable.0.error == "\(notATable.2.replacingOccurrences(of: "s.lua", with: "app.lua")):2: controller \"Editor\": actions must be a table of functions: actions = { save = function(vc) … end }")
    let notAFunction = try Self.run("launch()\n", app: "app { root = \"Editor\" }\ncontroller \"Editor\" { actions = { save = true } }\n")
    #expect(notAFunction.0.error == "\(notAFunction.2.replacingOccurrences(of: "s.lua", with: "app.lua")):2: controller \"Editor\": action \"save\" must be a function")
    #expect(notAFunction.0.exitStatus == 2)
  }
}
