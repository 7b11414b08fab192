import EventStore
import Foundation
import Lifecycle
import ScriptHost
import TestSupport

/// Logs of every bundled scenario (Scripts/scenarios), recorded once per test process on two
/// profiles (the default, and iOS 12 without scenes), for testing renderers against their
/// reference paths over real runs. Pairs of one scenario's two logs differ here and there, as
/// `diff`'s inputs do.
enum BundledLogs {
  /// The repository's root, from this file's place in it.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  /// Each scenario's two logs: (default profile, iOS 12 without scenes); a scenario that
  /// recorded no log on a profile is left out.
  static let pairs: [(a: String, b: String)] = {
    let scenarios = root + "/Scripts/scenarios"
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: scenarios)) ?? []).filter { $0.hasSuffix(".lua") }.sorted()
    var pairs: [(a: String, b: String)] = []
    for name in names {
      let a = record(scenarios + "/" + name, ios: nil, scenes: nil, as: "\(name)-default")
      let b = record(scenarios + "/" + name, ios: 12, scenes: false, as: "\(name)-ios12")
      if let a, let b { pairs.append((a, b)) }
    }
    return pairs
  }()

  /// Every log of `pairs`.
  static var all: [String] { pairs.flatMap { [$0.a, $0.b] } }

  private static func record(_ scenario: String, ios: Int?, scenes: Bool?, as name: String) -> String? {
    let log = temporaryPath("lifesim-render-logs", name + ".lifelog")
    var config = RunConfiguration(scenarioPath: scenario, ios: ios, scenes: scenes, outputPath: log,
                                  source: .files(searchPath: [root + "/Scripts/lib"]))
    config.wallLimitSeconds = 10
    _ = ScenarioRunner(config) { _, _ in }.run()
    return FileManager.default.fileExists(atPath: log) ? log : nil
  }

  /// Every event of the log at `path`, decoded one at a time: the reference for readers that
  /// decode ahead or in parallel.
  static func events(_ path: String) throws -> [(seq: Int64, event: Event)] {
    let stream = try LogEventStream(path: path)
    var events: [(seq: Int64, event: Event)] = []
    while let e = try stream.next() { events.append((e.seq, try Event(e))) }
    return events
  }
}
