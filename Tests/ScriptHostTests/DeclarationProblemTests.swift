import Foundation
import Testing
@testable import ScriptHost

/// A problem in an app's declarations names the line it is on: a handler's function line, or
/// else the `controller "Name" { … }` or `app { … }` line that declared it.
@Suite struct DeclarationProblemTests {
  private static func error(app: String) throws -> (String?, String) {
    let run = try runScripts(app: app, scenario: "scenario { app = \"app.lua\" }\nlaunch()\n")
    #expect(run.result.exitStatus == 2)
    return (run.result.error, run.scenarioPath.replacingOccurrences(of: "s.lua", with: "app.lua"))
  }

  @Test func aHandlerThatIsNotAFunctionNamesItsControllersLine() throws {
    let (error, app) = try Self.error(app: "app { root = \"Editor\" }\n\ncontroller \"Editor\" {\n  viewDidLoad = 42,\n}\n")
    #expect(error == "\(app):3: controller \"Editor\".viewDidLoad must be a function")
  }

  @Test func ofSeveralProblemsTheFirstLineIsReported() throws {
    let (error, app) = try Self.error(app: """
      app { root = "Editor" }
      controller "Editor" { viewDidLoad = function(vc) end }
      controller "List" {
        viewWillAppear = true,
      }
      controller "Detail" { viewDidLoad = "no" }
      """)
    #expect(error == "\(app):3: controller \"List\".viewWillAppear must be a function")
  }

  @Test func anUndeclaredRootNamesTheAppLineAndTheNearestController() throws {
    let (error, app) = try Self.error(app: "\napp { root = \"Editr\" }\ncontroller \"Editor\" { }\n")
    #expect(error == "\(app):2: the root controller \"Editr\" is not declared (did you mean \"Editor\"?): add controller \"Editr\" { }")
  }

  @Test func aLongPathIsNamedWhole() throws {
    // Lua's own messages shorten a chunk name over 60 bytes to "...tail"; a declaration problem
    // names the file whole, as the other script errors do.
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("lifesim-a-folder-whose-name-is-longer-than-lua-keeps-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let app = dir.appendingPathComponent("app.lua").path, scenario = dir.appendingPathComponent("s.lua").path
    try "app { root = \"Editor\" }\ncontroller \"Editor\" { viewDidLoad = 1 }\n".write(toFile: app, atomically: true, encoding: .utf8)
    try "scenario { app = \"app.lua\" }\nlaunch()\n".write(toFile: scenario, atomically: true, encoding: .utf8)
    let result = ScenarioRunner(RunConfiguration(scenarioPath: scenario)) { _, _ in }.run()
    #expect(app.utf8.count > 60)
    #expect(result.error == "\(app):2: controller \"Editor\".viewDidLoad must be a function")
  }

  @Test func aDelegateValueWithNoLineNamesTheFileOnly() throws {
    let (error, app) = try Self.error(app: "app { root = \"Editor\" }\ncontroller \"Editor\" { }\nAppDelegate.applicationDidBecomeActive = 1\n")
    #expect(error == "\(app): AppDelegate.applicationDidBecomeActive must be a function")
  }

  /// A typo in a handler name, an undeclared root, a mistake in `app { … }` or Lua that does not
  /// compile is the script's mistake, known when the app loads: the run stops before it starts,
  /// with no event (no crash to name with expect_terminated).
  @Test(arguments: [
    ("app { root = \"Home\" }\ncontroller \"Home\" {}\nfunction AppDelegate.applicationDidEnterBackgroud(a) end\n",
     ":3: AppDelegate has no handler \"applicationDidEnterBackgroud\" (did you mean applicationDidEnterBackground?)"),
    ("app { root = \"Hme\" }\ncontroller \"Home\" {}\n",
     ":1: the root controller \"Hme\" is not declared (did you mean \"Home\"?): add controller \"Hme\" { }"),
    ("app { root = \"Home\", container = \"stack\" }\ncontroller \"Home\" {}\n",
     ":1: app: container must be \"navigation\" or \"none\", not \"stack\""),
    ("app { root = \"Home\" }\ncontroller \"Home\" {\n", ":3: unexpected symbol near <eof>"),
  ])
  func aDeclarationProblemStopsTheRunBeforeItStarts(_ app: String, _ message: String) throws {
    let run = try runScripts(app: app, scenario: "scenario { app = \"app.lua\" }\nlaunch()\nexpect_state(\"active\")\n")
    let appPath = run.scenarioPath.replacingOccurrences(of: "s.lua", with: "app.lua")
    #expect(run.result.exitStatus == 2)
    #expect(run.result.error == appPath + message)
    #expect(run.result.header == nil && run.result.events == 0 && run.events.isEmpty)
  }

  /// One found only when the app launches (its top level makes an app call before the typo, so
  /// no trial load reaches it) stops the run there, as a script error: no crash is recorded.
  @Test func aProblemFoundAtLaunchIsNoCrash() throws {
    let run = try runScripts(app: "work(0.1)\napp { root = \"Home\" }\ncontroller \"Home\" {}\nfunction AppDelegate.applicationDidEnterBackgroud(a) end\n",
                             scenario: "scenario { app = \"app.lua\" }\nlaunch()\n")
    let appPath = run.scenarioPath.replacingOccurrences(of: "s.lua", with: "app.lua")
    #expect(run.result.exitStatus == 2)
    #expect(run.result.error == appPath + ":4: AppDelegate has no handler \"applicationDidEnterBackgroud\" (did you mean applicationDidEnterBackground?)")
    #expect(run.result.state.terminations.isEmpty && run.result.state.unexpectedFaults.isEmpty)
    #expect(!run.events.contains { if case .crashed = $0.body { true } else { false } })
    #expect(run.result.outcome["unexpected_terminations"] == nil)
  }
}
