import Foundation
import Testing
import TestSupport

/// Issue 20 (smaller list) and issue 13 item 8: a recorded script error is trouble in replay and
/// diff; --until is checked, never ignored, and takes a time; the trace can show event numbers.
@Suite(.serialized) struct ReplayOptionTests {
  /// A run that stopped on a script error after launching.
  private func stoppedRun() throws -> (scenario: String, log: String) {
    let scenario = temp("stopped.lua")
    try "launch()\nunlock()\n".write(toFile: scenario, atomically: false, encoding: .utf8)
    let log = temp("stopped.lifelog")
    #expect(try lifesim(["run", scenario, "-o", log, "-q"]).status == 2)
    return (scenario, log)
  }

  @Test func aRecordedScriptErrorReplaysAsTrouble() throws {
    let (scenario, log) = try stoppedRun()
    let message = "lifesim: \(log): the recorded run stopped on a script error: \(scenario):2: unlock(): the device is not locked (state: active)\n"
    let r = try lifesim(["replay", log], env: ["NO_COLOR": "1"])
    #expect(r.status == 2)
    #expect(r.err == message)
    #expect(r.out.hasSuffix("\nOutcome: the app is active after 30 events. Expectations: 0 passed, 0 failed. No termination. Nothing stored. Seed 1.\n"))
    let state = try lifesim(["replay", log, "--state"])
    #expect(state.status == 2 && state.err == message)
    let json = try lifesim(["replay", log, "--json"])
    #expect(json.status == 2 && json.err == message)
    let end = json.out.split(separator: "\n").last.map(String.init) ?? ""
    #expect(end.hasPrefix(#"{"kind":"end","command":"replay","status":2,"events":30,"#))
    #expect(end.hasSuffix(#","error":"\#(scenario):2: unlock(): the device is not locked (state: active)"}}"#))
    // Replayed only up to an event before the end, the prefix is what it was: no error, and the
    // end line says where it stopped, not how the log ends (--state reads the log in batches
    // and may already have met its end).
    for flags in [[], ["--state"]] {
      let r = try lifesim(["replay", log, "--until", "5", "--json"] + flags)
      #expect(r.status == 0 && r.err.isEmpty, "\(flags): \(r.err)")
      let end = r.out.split(separator: "\n").last.map(String.init) ?? ""
      #expect(end.hasPrefix(#"{"kind":"end","command":"replay","status":0,"events":5,"t":0,"seed":1,"until":5,"#), "\(flags): \(end)")
      #expect(try lifesim(["replay", log, "--until", "5"] + flags).status == 0)
    }
  }

  @Test func diffReportsARecordedScriptError() throws {
    let (scenario, log) = try stoppedRun()
    let r = try lifesim(["diff", log, log], env: ["NO_COLOR": "1"])
    #expect(r.status == 2)
    let line = "lifesim: \(log): the recorded run stopped on a script error: \(scenario):2: unlock(): the device is not locked (state: active)\n"
    #expect(r.err == line + line)
    #expect(r.out.contains("No difference in the events."))
    let row = "script error  \(scenario):2: unlock(): the device is not locked (state: active)"
    #expect(r.out.contains(row))
    let good = try recordedRun("stopped-vs-good.lifelog", scenario: "Scripts/scenarios/cold_launch.lua")
    let against = try lifesim(["diff", good, log, "--json"])
    #expect(against.status == 2)
    #expect(against.out.contains(#""differs":["expectations","error"]}}"#))
  }

  @Test func untilIsCheckedNeverIgnored() throws {
    let log = try recordedRun("until.lifelog")
    let cases: [([String], String)] = [
      (["--until=-1"], "--until takes an event number (0 or more) or a virtual time in seconds such as 12.5s, not -1"),
      (["--until", "1e3"], "--until takes an event number (0 or more) or a virtual time in seconds such as 12.5s, not 1e3"),
      (["--until=-2s"], "--until takes an event number (0 or more) or a virtual time in seconds such as 12.5s, not -2s"),
      (["--verify", "--until", "3"], "--until goes with the trace and --state; --verify re-runs the whole log"),
      (["--app", "Scripts/apps/notes.lua", "--until", "3"], "--until goes with the trace and --state; --app re-runs the whole log"),
      (["--verify", "--state"], "--state goes with the trace; --verify re-runs the whole log"),
      (["--verify", "--numbers"], "--numbers goes with the trace; --verify prints no trace"),
    ]
    for (args, message) in cases {
      let r = try lifesim(["replay", log] + args)
      #expect(r.status == 2, "\(args)")
      #expect(r.out == "", "\(args)")
      #expect(r.err.hasPrefix("lifesim: \(message)\nUsage: "), "\(args): \(r.err)")
    }
  }

  @Test func untilTakesATimeAndTheTraceShowsNumbers() throws {
    let log = try recordedRun("until-time.lifelog")
    let numbered = try lifesim(["run", "Scripts/scenarios/home_and_return.lua", "--numbers"], env: ["NO_COLOR": "1"])
    let lines = numbered.out.split(separator: "\n")
    #expect(lines.first == "     #1     0.000000 ▶ launch  Scripts/scenarios/home_and_return.lua:5")
    #expect(lines[71] == "    #72    60.500000 ✔ expect: the draft was saved while in the background  Scripts/scenarios/home_and_return.lua:14")
    let replayed = try lifesim(["replay", log, "--numbers"], env: ["NO_COLOR": "1"])
    #expect(replayed.out.split(separator: "\n").prefix(72) == lines.prefix(72))
    // 0.5 s: every event at or before t = 0.5 s, the last of them event 55.
    let byTime = try lifesim(["replay", log, "--numbers", "--until", "0.5s"], env: ["NO_COLOR": "1"])
    let byNumber = try lifesim(["replay", log, "--numbers", "--until", "55"], env: ["NO_COLOR": "1"])
    #expect(byTime.status == 0 && byTime.out == byNumber.out)
    #expect(byTime.out.contains("    #55     0.500000 ▶ advance 60.000000 s  Scripts/scenarios/home_and_return.lua:8\n\nOutcome: the app is suspended after 55 events."))
    let json = try lifesim(["replay", log, "--json", "--until", "0.4999s"])
    #expect(json.out.split(separator: "\n").last?.hasPrefix(#"{"kind":"end","command":"replay","status":0,"events":46,"t":0,"seed":1,"until_us":499900,"#) == true)
  }
}
