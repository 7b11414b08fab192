import Foundation
import Testing
import EventStore
import Lifecycle
@testable import ScriptHost

/// Every script in `Hostile/` names its outcome on line 1 (`-- outcome: watchdog|crash|jetsam|ok|exit2`).
/// Each runs as the app of one scenario (launch, lock, 40 s, unlock, memory warning: legal in any state); the host must survive,
/// the outcome must be exactly the documented one, and the log must verify.
@Suite struct HostileCorpusTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Hostile")

  static var scripts: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".lua") }.sorted()
  }

  @Test func corpusIsLargeEnough() { #expect(Self.scripts.count >= 30) }

  @Test(arguments: HostileCorpusTests.scripts)
  func hostileScript(_ name: String) throws {
    let app = Self.folder.appendingPathComponent(name).path
    let source = try String(contentsOfFile: app, encoding: .utf8)
    let expected = String(source.split(separator: "\n")[0].dropFirst("-- outcome: ".count))
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-hostile-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let scenario = dir.appendingPathComponent("s-\(name)").path
    try "launch()\nlock()\nadvance(40)\nunlock()\nmemory_warning()\n".write(toFile: scenario, atomically: true, encoding: .utf8)
    let log = dir.appendingPathComponent("\(name).lifelog").path
    try? FileManager.default.removeItem(atPath: log)
    var config = RunConfiguration(scenarioPath: scenario, appPath: app, outputPath: log)
    config.overwrite = true
    let result = ScenarioRunner(config) { _, _ in }.run()
    let first = result.state.terminations.first?.reason
    switch expected {
    case "exit2":
      #expect(result.exitStatus == 2, "\(name): \(result.error ?? "no error")")
    case "ok":
      #expect(result.exitStatus == 0 && result.state.terminations.isEmpty, "\(name): \(result.state.terminations)")
    default:
      #expect(first?.rawValue == expected, "\(name): \(String(describing: first)) \(result.state.terminations.first?.description ?? "")")
      // The scenario goes on after the kill, and the run fails: no expect_terminated names the fault.
      #expect(result.error == nil, "\(name): \(result.error ?? "")")
      let fault = result.state.terminations.first?.isFault ?? false
      #expect(result.exitStatus == (fault ? 1 : 0), "\(name): exit \(result.exitStatus)")
    }
    if expected == "exit2", !FileManager.default.fileExists(atPath: log) { return }  // refused before the run began
    let check = LogVerification.check(path: log)
    #expect(check == .intact(events: result.events), "\(name): \(check.description)")
  }
}
