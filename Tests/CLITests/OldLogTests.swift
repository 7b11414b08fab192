import Foundation
import Testing

/// Logs are users' records: logs written by an older lifesim (the fixtures were recorded by
/// lifesim 0.1.0, before the model changes of 0.2.0) are read by every command, and a re-run
/// that departs from one says which version recorded it.
@Suite(.serialized) struct OldLogTests {
  static let folder = repositoryRoot.path + "/Tests/CLITests/Fixtures/lifesim-0.1.0"
  static let logs = ["home_and_return.lifelog", "did_enter_background_overrun.lifelog"]

  @Test func everyCommandReadsAnOlderLog() throws {
    for name in Self.logs {
      let log = Self.folder + "/" + name
      let verify = try lifesim(["verify", log])
      #expect(verify.status == 0 && verify.out.hasPrefix("\(log): intact and complete: "), "\(name): \(verify.out)\(verify.err)")
      let replay = try lifesim(["replay", log, "--state"])
      #expect(replay.status == 0 && replay.out.contains("expectations: "), "\(name): \(replay.err)")
      for format in ["chrome-trace", "mermaid", "jsonl", "html"] {
        let out = temp("old-\(name).\(format)")
        let export = try lifesim(["export", log, "--format", format, "-o", out])
        #expect(export.status == 0, "\(name) \(format): \(export.err)")
      }
      let tables = try lifesim(["export", log, "--format", "tables", "-o", temp("old-\(name)-tables")])
      #expect(tables.status == 0, "\(name) tables: \(tables.err)")
    }
    let diff = try lifesim(["diff", Self.folder + "/" + Self.logs[0], Self.folder + "/" + Self.logs[1]])
    #expect(diff.status == 1 && diff.out.contains("← differs"), "\(diff.err)")
  }

  @Test func aReRunThatDepartsNamesTheVersionThatRecordedTheLog() throws {
    let log = Self.folder + "/home_and_return.lifelog"
    let r = try lifesim(["replay", log, "--verify"])
    #expect(r.status == 1)
    #expect(r.err.hasPrefix("lifesim: note: \(log) was recorded by lifesim 0.1.0; this is 0.2.0. The same scripts and seed give identical events only within one version.\n"))
    #expect(r.out.hasPrefix("Diverged at event 18 (t = 0.000000 s):\n"), "\(r.out)")
  }
}
