import Foundation
import Lifecycle
import Testing
@testable import ScriptHost

/// `UIApplication.shared:delegateWindow(site)` and `:frameWindow(site)` (docs/lua-api.md): UIKit
/// sets the app delegate's window, and shows a window made from a frame, only in a run without
/// scenes; each call is recorded with its site.
@Suite struct WindowCallTests {
  private static let app = """
    app { root = "Home" }
    controller "Home" {}
    function AppDelegate.didFinishLaunchingWithOptions()
      store("window", UIApplication.shared:delegateWindow("Banner.swift:5"))
      UIApplication.shared:delegateWindow()
      store("shown", UIApplication.shared:frameWindow("AppDelegate.swift:12"))
      return true
    end
    """

  /// Runs the app on `ios` (scenes from iOS 13, the default); what it stored, its reads, and how
  /// its process ended (a Lua error in app code is a crash).
  private func run(ios: Int, app: String = Self.app) throws -> (stored: Bool?, reads: [String], shown: Bool?, crash: String?) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ls-window-\(UUID().uuidString.prefix(12))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try app.write(toFile: dir.appendingPathComponent("app.lua").path, atomically: true, encoding: .utf8)
    let path = dir.appendingPathComponent("s.lua").path
    try "scenario { app = \"app.lua\", ios = \(ios) }\nlaunch()\n".write(toFile: path, atomically: true, encoding: .utf8)
    var reads: [String] = []
    let result = ScenarioRunner(RunConfiguration(scenarioPath: path)) { _, e in
      if case let .appCalled(.delegateWindow(present, site), _) = e.body { reads.append("\(site ?? "-") \(present)") }
      if case let .appCalled(.frameWindow(shown, site), _) = e.body { reads.append("made at \(site ?? "-") \(shown)") }
    }.run()
    return (result.state.store["window"]?.boolValue, reads, result.state.store["shown"]?.boolValue, result.state.terminations.first?.description)
  }

  @Test func aSceneAppReadsNilAndAnAppWithoutScenesItsWindow() throws {
    let scenes = try run(ios: 17), sceneless = try run(ios: 12)
    #expect(scenes.stored == false && scenes.reads == ["Banner.swift:5 false", "- false", "made at AppDelegate.swift:12 false"], "\(scenes)")
    #expect(sceneless.stored == true && sceneless.reads == ["Banner.swift:5 true", "- true", "made at AppDelegate.swift:12 true"], "\(sceneless)")
    #expect(scenes.shown == false && sceneless.shown == true)
  }

  @Test(arguments: [
    (#"delegateWindow("a\nb")"#, "delegateWindow: the site must be 1 to 200 bytes with no control character"),
    ("delegateWindow(5)", #"delegateWindow: expected the code's site as a string ("Banner.swift:5"), not 5"#),
    ("frameWindow({})", #"frameWindow: expected the code's site as a string ("AppDelegate.swift:12"), not a table"#),
  ])
  func aSiteThatCannotBeOneIsAnErrorAtItsLine(call: String, message: String) throws {
    let r = try run(ios: 17, app: Self.app.replacingOccurrences(of: #"delegateWindow("Banner.swift:5")"#, with: call))
    #expect(r.crash?.contains("app.lua:4: \(message)") == true, "\(r.crash ?? "nil")")
  }
}
