import Foundation
import Testing
import TestSupport

/// Issue 16, `replay --state`: `replay LOG [--state] [--json]` is read without ArgumentParser.
/// Each such replay must print and exit exactly as the same replay does when ArgumentParser
/// reads it (`--until` past the last event, which only ArgumentParser takes, changes nothing),
/// and every other form must still get ArgumentParser's own messages.
@Suite(.serialized) struct QuickReplayTests {
  @Test func theStateTraceAndJSONAreArgumentParsersOwn() throws {
    let log = try recordedRun("quick-replay.lifelog")
    let cut = temp("quick-replay-cut.lifelog")
    let bytes = try #require(FileManager.default.contents(atPath: log))
    try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
    for path in [log, cut, temp("quick-replay-missing.lifelog")] {
      for flags in [["--state"], ["--state", "--json"], ["--json"], []] {
        let quick = try lifesim(["replay", path] + flags)
        let parsed = try lifesim(["replay", path] + flags + ["--until", "99999999"])
        #expect(quick.status == parsed.status && quick.out == parsed.out && quick.err == parsed.err, "\(path) \(flags)")
      }
    }
    let state = try lifesim(["replay", "--state", log])
    #expect(state.status == 0 && state.out.contains("applicationState"), "\(state.out)")
    let missing = try lifesim(["replay", temp("quick-replay-missing.lifelog"), "--state"])
    #expect(missing.status == 2 && missing.err.hasSuffix("cannot open: No such file or directory\n"), "\(missing.err)")
  }

  @Test func otherFormsKeepArgumentParsersMessages() throws {
    let usage = "Usage: run 'lifesim --help' (or 'lifesim COMMAND --help') for the options and examples.\n"
    let cases: [([String], String)] = [
      (["replay", "--state"], "lifesim: Missing expected argument '<log>'\n"),
      (["replay", "a.lifelog", "b.lifelog"], "lifesim: Unexpected argument 'b.lifelog'\n"),
      (["replay", "a.lifelog", "-"], "lifesim: Unexpected argument '-'\n"),
    ]
    for (args, message) in cases {
      let r = try lifesim(args)
      #expect(r.status == 2 && r.out.isEmpty && r.err == message + usage, "\(args): \(r.err)")
    }
  }
}
