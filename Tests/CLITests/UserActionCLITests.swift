import Foundation
import Testing

/// `act(name, …)` as a user meets it: the error at the scenario's line, the trace, replay, and
/// explore finding a data-loss bug that needs a user action.
@Suite(.serialized) struct UserActionCLITests {
  private let apps = repositoryRoot.appendingPathComponent("Tests/ExploreTests/ExploreApps").path

  @Test func aMisspelledActionStopsTheRunAtItsLineNamingTheControllersActions() throws {
    let dir = try scriptFolder("act-error", [
      "app.lua": try String(contentsOfFile: apps + "/editor.lua", encoding: .utf8),
      "s.lua": "scenario { app = \"app.lua\" }\nlaunch()\nact(\"type\", \"hi\")\nact(\"sav\")\n",
    ])
    let r = try lifesim(["run", "s.lua", "-q"], cwd: dir)
    #expect(r.status == 2)
    #expect(r.err == "lifesim: s.lua:4: act(): Editor#1 has no action \"sav\" (did you mean save?); its actions: save, type (state: active)\n", "\(r.err)")
    let table = try lifesim(["run", "s.lua", "-q"], cwd: try scriptFolder("act-table", [
      "app.lua": try String(contentsOfFile: apps + "/editor.lua", encoding: .utf8),
      "s.lua": "scenario { app = \"app.lua\" }\nlaunch()\nact(\"type\", { \"hi\" })\n",
    ]))
    #expect(table.status == 2)
    #expect(table.err == "lifesim: s.lua:3: act: argument 2 must be a string, a finite number or a boolean, not a table\n", "\(table.err)")
  }

  @Test func theTraceShowsTheActionAndReplayVerifiesIt() throws {
    let dir = try scriptFolder("act-trace", [
      "app.lua": try String(contentsOfFile: apps + "/editor.lua", encoding: .utf8),
      "s.lua": "scenario { app = \"app.lua\" }\nlaunch()\nact(\"type\", \"hi\")\nact(\"save\")\nexpect(stored(\"draft\") == \"hi\", \"saved\")\n",
    ])
    let r = try lifesim(["run", "s.lua", "-o", "s.lifelog", "--force"], cwd: dir)
    #expect(r.status == 0, "\(r.err)")
    let lines = r.out.split(separator: "\n").map(String.init)
    let act = try #require(lines.firstIndex { $0.contains("▶ act type") })
    #expect(Array(lines[act..<(act + 8)]) == [
      "    0.000000 ▶ act type \"hi\"  s.lua:3",
      "    0.000000     → Editor#1.action(_:) {\"action\":\"type\",\"arguments\":[\"hi\"]}",
      "    0.000000       · store draft_length = 2",
      "    0.000000     ← Editor#1.action(_:) after 0.000000 s",
      "    0.000000 ▶ act save  s.lua:4",
      "    0.000000     → Editor#1.action(_:) {\"action\":\"save\",\"arguments\":[]}",
      "    0.000000       · store draft = \"hi\"",
      "    0.000000     ← Editor#1.action(_:) after 0.000000 s",
    ])
    let verify = try lifesim(["replay", "s.lifelog", "--verify"], cwd: dir)
    #expect(verify.status == 0, "\(verify.out)\(verify.err)")
  }

  @Test func exploreFindsTheDraftLostAfterTypingAndTheFindingFailsWithRun() throws {
    let out = temp("act-explore")
    try? FileManager.default.removeItem(atPath: out)
    let r = try lifesim(["explore", apps + "/editor_spec.lua", "--runs", "200", "--seed", "1", "-o", out])
    #expect(r.status == 1, "\(r.out)\(r.err)")
    #expect(r.out.contains("finding 1: invariant \"the draft survives any termination\" violated, 3 verbs (\(out)/finding-1.lua)"), "\(r.out)")
    let scenario = try String(contentsOfFile: out + "/finding-1.lua", encoding: .utf8)
    let verbs = scenario.split(separator: "\n").map(String.init).drop { !$0.hasPrefix("end") }.dropFirst()
    #expect(Array(verbs) == ["launch()", "act(\"type\", \"hello\")", "reboot()",
                             "expect(invariant(), \"invariant \\\"the draft survives any termination\\\" holds\")"])
    let run = try lifesim(["run", out + "/finding-1.lua", "-q"])
    #expect(run.status == 1, "\(run.out)\(run.err)")
    #expect(run.out.contains("Stored: draft_length = 5."), "\(run.out)")
  }
}
