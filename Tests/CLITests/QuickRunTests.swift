import Foundation
import Testing
import TestSupport

/// Issue 16, start-up: `run FILE [-q] [-o FILE]` is read without ArgumentParser. Each such run
/// must print, exit and record exactly what the same run does when ArgumentParser reads it (an
/// option at its default value, or `--output=FILE`, which only ArgumentParser takes), and every
/// other form must still get ArgumentParser's own messages.
@Suite(.serialized) struct QuickRunTests {
  /// A passing run (exit 0), a failing expectation (1) and a script error (2).
  private func scenarios() throws -> [String] {
    let failing = temp("quick-failing.lua"), broken = temp("quick-broken.lua")
    try "launch()\nexpect_state(\"suspended\")\n".write(toFile: failing, atomically: false, encoding: .utf8)
    try "launch()\nadvance(\"soon\")\n".write(toFile: broken, atomically: false, encoding: .utf8)
    return ["Scripts/scenarios/home_and_return.lua", failing, broken]
  }

  @Test func theTraceAndOutcomeAreArgumentParsersOwn() throws {
    var statuses: [Int32] = []
    for scenario in try scenarios() {
      let quick = try lifesim(["run", scenario])
      statuses.append(quick.status)
      let parsed = try lifesim(["run", scenario, "--max-events", "50000000"])
      #expect(quick.status == parsed.status && quick.out == parsed.out && quick.err == parsed.err, "\(scenario)")
      #expect(!quick.out.isEmpty, "\(scenario) printed no trace")
    }
    #expect(statuses == [0, 1, 2])
  }

  @Test func quietRunsWriteTheSameLog() throws {
    for scenario in try scenarios() {
      let name = URL(fileURLWithPath: scenario).deletingPathExtension().lastPathComponent
      let quickLog = temp("quick-\(name).lifelog"), parsedLog = temp("parsed-\(name).lifelog")
      try? FileManager.default.removeItem(atPath: quickLog)
      try? FileManager.default.removeItem(atPath: parsedLog)
      let quick = try lifesim(["run", "-o", quickLog, scenario, "-q"])
      let parsed = try lifesim(["run", scenario, "--quiet", "--output=\(parsedLog)"])
      #expect(quick.status == parsed.status && quick.out == parsed.out, "\(scenario)")
      #expect(quick.err == parsed.err.replacingOccurrences(of: parsedLog, with: quickLog), "\(scenario)")
      #expect(FileManager.default.contents(atPath: quickLog) == FileManager.default.contents(atPath: parsedLog), "\(scenario)")
    }
  }

  @Test func anExistingLogIsRefusedAsBefore() throws {
    let log = try recordedRun("quick-existing.lifelog")
    let r = try lifesim(["run", "Scripts/scenarios/cold_launch.lua", "-q", "-o", log])
    #expect(r.status == 2)
    #expect(r.err == "lifesim: \(log): already exists; refusing to overwrite it (pass --force to replace it)\n")
  }

  @Test func otherFormsKeepArgumentParsersMessages() throws {
    let usage = "Usage: run 'lifesim --help' (or 'lifesim COMMAND --help') for the options and examples.\n"
    let cases: [([String], String)] = [
      (["run", "-q"], "lifesim: Missing expected argument '<scenario>'\n"),
      (["run", "a.lua", "b.lua"], "lifesim: Unexpected argument 'b.lua'\n"),
      (["run", "a.lua", "-o"], "lifesim: Missing value for '-o <output>'\n"),
      (["run", "a.lua", "-o", "-q"], "lifesim: Missing value for '-o <output>'\n"),
      (["run", "a.lua", "-"], "lifesim: Unexpected argument '-'\n"),
    ]
    for (args, message) in cases {
      let r = try lifesim(args)
      #expect(r.status == 2 && r.out.isEmpty && r.err == message + usage, "\(args): \(r.err)")
    }
  }
}
