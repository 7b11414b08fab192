import Foundation
import Testing

/// DuckDB from PyPI, which `make test` installs.
let duckdbReady = pythonModuleReady("duckdb")

/// `export --format tables`: what DuckDB reads with `schema.sql`, checked against lifesim's own
/// outcomes by every query of docs/analytics.md (scripts/check_tables.py).
@Suite struct TablesExportTests {
  @Test(.enabled(if: duckdbReady, "needs Python's duckdb (pip install duckdb), which could not be installed"))
  func everyAnalyticsQueryAgreesWithLifesimsOutcomes() throws {
    // Every bundled run, and home_and_return on iOS 12 (without scenes) too: it fails there.
    let ios12 = try recordedRun("tables-home-ios12.lifelog", extra: ["--ios", "12", "--no-scenes"])
    let logs = bundledRuns + [ios12]
    let dir = temp("tables")
    try? FileManager.default.removeItem(atPath: dir)
    let start = Date()
    let r = try lifesim(["export"] + logs + ["--format", "tables", "-o", dir])
    print("tables export of \(logs.count) runs: \(Date().timeIntervalSince(start)) s")
    #expect(r.status == 0 && r.out.isEmpty && r.err.isEmpty, "\(r.err)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["events.jsonl", "runs.jsonl", "schema.sql", "states.jsonl"])
    // Background time by hand: never ended, background from 0 to the kill at 30 s; expiring,
    // from 0 to the suspension at 25 s; home and return, from 0 to the suspension at 0.5 s
    // (suspended for 60 s, which is not background time, then at once foreground).
    let hand = #"{"background_task_never_ended@17": 30.0, "background_task_expiring@17": 25.0, "home_and_return@17": 0.5}"#
    let check = try pythonScript("check_tables.py", [dir, repositoryRoot.appendingPathComponent("docs/analytics.md").path, hand] + logs)
    #expect(check.status == 0, "\(check.out)\(check.err)")
    #expect(check.out == "ok: \(logs.count) runs, 7 queries, 21 terminations, 2 failed expectations, 1 iOS differences\n")
  }

  /// A damaged log among several leaves no folder and no file; files there already are refused
  /// without --force.
  @Test func aFailedTablesExportLeavesNothing() throws {
    let log = try recordedRun("tables-good.lifelog")
    var lines = try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "\n")
    lines.remove(at: 13)
    let bad = temp("tables-bad.lifelog")
    try lines.joined(separator: "\n").write(toFile: bad, atomically: false, encoding: .utf8)
    let dir = temp("tables-failed")
    try? FileManager.default.removeItem(atPath: dir)
    let r = try lifesim(["export", log, bad, "--format", "tables", "-o", dir])
    #expect(r.status == 2)
    #expect(r.err == "lifesim: \(bad): line 14: hash chain broken\n")
    #expect(!FileManager.default.fileExists(atPath: dir))
    #expect(try lifesim(["export", log, "--format", "tables", "-o", dir]).status == 0)
    let again = try lifesim(["export", log, "--format", "tables", "-o", dir])
    #expect(again.status == 2)
    #expect(again.err == "lifesim: \(dir)/runs.jsonl: already exists; refusing to overwrite it (pass --force to replace it)\n")
    let one = try lifesim(["export", log, log, "--format", "html"])
    #expect(one.status == 2 && one.err == "lifesim: export --format html takes one log, not 2 (only --format tables takes several)\n")
  }
}
