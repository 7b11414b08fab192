import Foundation
import Testing
import TestSupport

/// A header whose chain verifies (anyone can re-hash a log) but whose values lifesim would never
/// write is refused by every command that reads it: exit 2 naming the knob and its range, never a
/// trap (a knob at Int64.max crashed `replay --verify`, `replay --app` and the chrome-trace export).
@Suite struct HeaderCheckTests {
  /// Every command that reads a log, with the log last or where `LOG` stands.
  private static let readers: [[String]] = [
    ["verify"], ["replay"], ["replay", "--state"], ["replay", "--json"], ["replay", "--verify"],
    ["replay", "--app", "Scripts/apps/notes.lua"], ["diff", "LOG", "LOG"], ["coverage"],
    ["export", "--format", "chrome-trace"], ["export", "--format", "html"], ["export", "--format", "mermaid"],
    ["export", "--format", "tables", "-o", "TABLES"],
  ]

  private func arguments(_ reader: [String], _ log: String) -> [String] {
    let args = reader.map { $0 == "LOG" ? log : $0 == "TABLES" ? temp("header-tables") : $0 }
    return args.contains(log) ? args : [args[0], log] + args.dropFirst()
  }

  @Test func aKnobAtInt64MaxIsRefusedByEveryReader() throws {
    let log = try crafted(try recordedRun("header-source.lifelog"), "header-max.lifelog", line: 1,
                          #""didEnterBackgroundBudget_us":5000000"#, #""didEnterBackgroundBudget_us":9223372036854775807"#)
    let message = "lifesim: \(log): line 1: header: profile: knob didEnterBackgroundBudget_us is 9223372036854775807, outside its range 0…31536000000000\n"
    for reader in Self.readers {
      let r = try lifesim(arguments(reader, log), env: ["NO_COLOR": "1"])
      #expect(r.status == 2, "\(reader): \(r.err)")
      #expect(r.err == message, "\(reader)")
    }
  }

  @Test func everyNumberKnobJustOutsideItsRangeIsRefusedByReplayVerify() throws {
    let source = try recordedRun("header-sweep.lifelog")
    let header = try #require(try String(contentsOfFile: source, encoding: .utf8).split(separator: "\n").first)
    let ranges: [(String, ClosedRange<Int64>)] = [("instructionLimit", 1_000...1_000_000_000_000),
                                                  ("memoryLimitBytes", 1_048_576...17_179_869_184),
                                                  ("restoreInteractionMinIOS", 13...26)]
    let durations = header.matches(of: /"([A-Za-z]+_us)":/).map { (String($0.1), Int64(0)...31_536_000_000_000) }
    #expect(durations.count == 13)
    for (key, range) in ranges + durations {
      let recorded = try #require(header.firstMatch(of: try Regex(#""\#(key)":[0-9]+"#)))
      for value in [Int64.min, range.lowerBound - 1, range.upperBound + 1, Int64.max] {
        let log = try crafted(source, "header-\(key).lifelog", line: 1, String(header[recorded.range]), #""\#(key)":\#(value)"#)
        let r = try lifesim(["replay", log, "--verify"])
        #expect(r.status == 2 && r.err == "lifesim: \(log): line 1: header: profile: knob \(key) is \(value), outside its range \(range.lowerBound)…\(range.upperBound)\n",
                "\(key) = \(value): \(r.status) \(r.err)")
      }
    }
  }
}
