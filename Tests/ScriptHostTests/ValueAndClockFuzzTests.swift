import Foundation
import Testing
import TestSupport
import EventStore
import Lifecycle
@testable import ScriptHost

/// Random nested, cyclic and extreme values through `store`/`stored`/`log`, and random clock
/// sequences up to the log's latest time: every case must end as an ordinary outcome or a
/// script error — never a signal — and its log must verify. One seed per case, named on failure.
@Suite struct ValueAndClockFuzzTests {
  static let cases = 150

  /// Lua source building a random value in `v` (tables nested up to 40 deep, cycles, odd keys).
  static func valueSource(_ rng: inout SplitMix64) -> String {
    var lines = ["local v = {}", "local cur = v"]
    let depth = rng.below(41)
    for i in 0..<depth {
      switch rng.below(6) {
      case 0: lines.append("cur.k\(i) = {} cur = cur.k\(i)")
      case 1: lines.append("cur[#cur + 1] = {} cur = cur[#cur]")
      case 2: lines.append("cur.self = cur")  // a cycle
      case 3: lines.append("cur.n = \(["0/0", "1/0", "-1/0", "math.maxinteger", "math.mininteger", "1e308", "-0.0"][rng.below(7)])")
      case 4: lines.append("cur[\(["true", "1.5", "-1", "{}"][rng.below(4)])] = 1")
      default: lines.append("cur.s = string.rep('\\1\\0\"', \(rng.below(1000)))")
      }
    }
    if rng.below(4) == 0 { lines.append("v.loop = v") }
    return lines.joined(separator: "\n")
  }

  static func scenarioSource(_ rng: inout SplitMix64) -> String {
    var verbs = ["launch()"]
    for _ in 0..<rng.below(8) {
      switch rng.below(6) {
      case 0: verbs.append("advance(\(rng.below(31_536_001)))")
      case 1: verbs.append("for _ = 1, \(rng.below(500)) do advance(31536000) end")
      case 2: verbs.append("home()")
      case 3: verbs.append("launch()")
      case 4: verbs.append("local _ = stored('k') expect(true, 'read')")
      default: verbs.append("memory_warning()")
      }
    }
    return verbs.joined(separator: "\n") + "\n"
  }

  @Test(arguments: 0..<cases)
  func randomValuesAndClocks(_ index: Int) throws {
    var rng = SplitMix64(seed: 0xC10C_0000 + UInt64(index))
    let value = Self.valueSource(&rng)
    let sink = ["store('k', v)", "pcall(store, 'k', v)", "log(tostring(v))", "after(\(rng.below(100)), function() store('k', v) end)",
                "work(\(rng.below(86_401)))"][rng.below(5)]
    let app = """
      controller "ViewController" {}
      function SceneDelegate.sceneDidBecomeActive(scene)
      \(value)
      \(sink)
      local _ = stored('k')
      end

      """
    let dir = temporaryPath("lifesim-fuzz-values", "case-\(index)")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try app.write(toFile: dir + "/app.lua", atomically: true, encoding: .utf8)
    try Self.scenarioSource(&rng).write(toFile: dir + "/s.lua", atomically: true, encoding: .utf8)
    let log = dir + "/run.lifelog"
    let result = ScenarioRunner(RunConfiguration(scenarioPath: dir + "/s.lua", appPath: dir + "/app.lua", outputPath: log)) { _, _ in }.run()
    #expect([0, 1, 2].contains(result.exitStatus), "case \(index)")
    if result.exitStatus == 2 { #expect(result.error != nil, "case \(index): exit 2 says why") }
    let check = LogVerification.check(path: log)
    #expect(check == .intact(events: result.events), "case \(index): \(check.description)")
  }
}
