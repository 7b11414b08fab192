import Foundation
import Testing

/// A scenario that stops because the app died fails (exit 1); it is not a broken scenario.
@Suite(.serialized) struct FaultStopTests {
  static let files = [
    "app.lua": VerdictTests.crashingApp,
    "s.lua": "scenario { name = \"dies\", ios = 17, app = \"app.lua\" }\nadvance(1.5)\nlaunch()\nhome()\nexpect_state(\"background\")\n",
  ]
  static let stopped = "stopped at line 4: home() needs a running app; the app was terminated by crash (app.lua:3: boom) at 1.500000 s"

  @Test func aVerbTheDeadAppRefusesEndsTheRunAsAFailure() throws {
    let dir = try scriptFolder("fault-stop", Self.files)
    let r = try lifesim(["run", "s.lua", "-o", "s.lifelog"], cwd: dir)
    #expect(r.status == 1, "\(r.err)")
    #expect(r.err == "lifesim: \(Self.stopped)\n")
    #expect(r.out.contains("ℹ stopped: \(Self.stopped)\n"), "\(r.out)")
    #expect(r.out.contains("Expectations: 0 passed, 0 failed. Terminations: crash (app.lua:3: boom) [illegalInstruction, foreground]. Failed: unexpected termination (crash)"), "\(r.out)")
    let log = try String(contentsOfFile: dir + "/s.lifelog", encoding: .utf8)
    let trailer = try #require(log.split(separator: "\n").last)
    #expect(trailer.contains(",\"unexpected_terminations\":[\"crash\"],\"stopped\":\"\(Self.stopped)\"},"), "\(trailer)")
    #expect(!trailer.contains("\"error\""))
    let verify = try lifesim(["replay", "s.lifelog", "--verify"], cwd: dir)
    #expect(verify.status == 0 && verify.out == "s.lifelog: identical: 17 events re-ran as recorded\n", "\(verify)")
    let replay = try lifesim(["replay", "s.lifelog"], cwd: dir)
    #expect(replay.status == 0 && replay.err == "lifesim: s.lifelog: the recorded run \(Self.stopped)\n", "\(replay)")
    let json = try lifesim(["replay", "s.lifelog", "--json"], cwd: dir)
    let end = try #require(json.out.split(separator: "\n").last)
    #expect(end.contains(",\"unexpected_terminations\":[\"crash\"],\"stopped\":\"\(Self.stopped)\"}"), "\(end)")
  }

  @Test func theSuiteReportsAFailureNotAnError() throws {
    let dir = try scriptFolder("fault-stop-suite", Self.files)
    let r = try lifesim(["test", "s.lua", "--junit", "j.xml", "--json", "--no-wall-time"], cwd: dir)
    #expect(r.status == 1, "\(r.out)")
    #expect(r.out.contains("\"status\":\"failed\",\"events\":17,\"virtualUs\":1500000,\"message\":\"\(Self.stopped)\""), "\(r.out)")
    let xml = try String(contentsOfFile: dir + "/j.xml", encoding: .utf8)
    #expect(xml.contains("failures=\"1\" errors=\"0\""))
    #expect(xml.contains("<failure message=\"\(Self.stopped)\" type=\"expectation\">"), "\(xml)")
    #expect(!xml.contains("<error"))
  }

  /// A changed app that dies where the recorded one did not: `replay --app --json` ends with
  /// the changed app's outcome, `stopped` included, as `run --json` and the log's trailer do.
  @Test func aReRunWithAChangedAppThatDiesSaysWhereItStopped() throws {
    var files = Self.files
    files["fine.lua"] = "app {}\ncontroller \"ViewController\" {}\n"
    files["s.lua"] = "scenario { name = \"dies\", ios = 17, app = \"fine.lua\" }\nadvance(1.5)\nlaunch()\nhome()\nexpect_state(\"suspended\")\n"
    let dir = try scriptFolder("fault-stop-replay", files)
    #expect(try lifesim(["run", "s.lua", "-q", "-o", "s.lifelog"], cwd: dir).status == 0)
    let r = try lifesim(["replay", "s.lifelog", "--app", "app.lua", "--json"], cwd: dir)
    #expect(r.status == 1, "\(r.err)")
    let end = try #require(r.out.split(separator: "\n").last)
    #expect(end.contains(",\"stopped\":\"\(Self.stopped)\"}"), "\(end)")
  }

  /// The script's own mistakes stay errors: a refusal while the app runs, or after a crash the
  /// scenario named (it knew the app was gone).
  @Test func aRefusalTheScriptCausedIsStillAnError() throws {
    let alive = try scriptFolder("fault-stop-alive", ["s.lua": "launch()\nunlock()\n"])
    let r = try lifesim(["run", "s.lua", "-q"], cwd: alive)
    #expect(r.status == 2)
    #expect(r.err.hasPrefix("lifesim: s.lua:2: unlock(): "), "\(r.err)")
    var named = Self.files
    named["s.lua"] = "scenario { app = \"app.lua\" }\nlaunch()\nexpect_terminated(\"crash\")\nhome()\n"
    let dir = try scriptFolder("fault-stop-named", named)
    let after = try lifesim(["run", "s.lua", "-q"], cwd: dir)
    #expect(after.status == 2)
    #expect(after.err == "lifesim: s.lua:4: home(): the app is not frontmost (state: not_running)\n", "\(after.err)")
  }
}
