import Foundation
import Lifecycle
import Testing
@testable import ScriptHost

/// `UIApplication.shared:delegateWindow(site)` (docs/lua-api.md): UIKit sets the app delegate's
/// window only in a run without scenes; each read is recorded with its site.
@Suite struct DelegateWindowTests {
  private static let app = """
    app { root = "Home" }
    controller "Home" {}
    function AppDelegate.didFinishLaunchingWithOptions()
      store("window", UIApplication.shared:delegateWindow("Banner.swift:5"))
      UIApplication.shared:delegateWindow()
      return true
    end
    """

  /// Runs the app on `ios` (scenes from iOS 13, the default); what it stored, its reads, and how
  /// its process ended (a Lua error in app code is a crash).
  private func run(ios: Int, app: String = Self.app) throws -> (stored: Bool?, reads: [String], crash: String?) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ls-window-\(UUID().uuidString.prefix(12))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try app.write(toFile: dir.appendingPathComponent("app.lua").path, atomically: true, encoding: .utf8)
    let path = dir.appendingPathComponent("s.lua").path
    try "scenario { app = \"app.lua\", ios = \(ios) }\nlaunch()\n".write(toFile: path, atomically: true, encoding: .utf8)
    var reads: [String] = []
    let result = ScenarioRunner(RunConfiguration(scenarioPath: path)) { _, e in
      if case let .appCalled(.delegateWindow(present, site), _) = e.body { reads.append("\(site ?? "-") \(present)") }
    }.run()
    return (result.state.store["window"]?.boolValue, reads, result.state.terminations.first?.description)
  }

  @Test func aSceneAppReadsNilAndAnAppWithoutScenesItsWindow() throws {
    let scenes = try run(ios: 17), sceneless = try run(ios: 12)
    #expect(scenes.stored == false && scenes.reads == ["Banner.swift:5 false", "- false"], "\(scenes)")
    #expect(sceneless.stored == true && sceneless.reads == ["Banner.swift:5 true", "- true"], "\(sceneless)")
  }

  @Test(arguments: [
    (#"delegateWindow("a\nb")"#, "delegateWindow: the site must be 1 to 200 bytes with no control character"),
    ("delegateWindow(5)", #"delegateWindow: expected the reading code's site as a string ("Banner.swift:5"), not 5"#),
  ])
  func aSiteThatCannotBeOneIsAnErrorAtItsLine(call: String, message: String) throws {
    let r = try run(ios: 17, app: Self.app.replacingOccurrences(of: #"delegateWindow("Banner.swift:5")"#, with: call))
    #expect(r.crash?.contains("app.lua:4: \(message)") == true, "\(r.crash ?? "nil")")
  }
}
