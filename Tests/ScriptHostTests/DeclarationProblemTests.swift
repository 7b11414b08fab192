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
}
