import Foundation
import Testing
import TestSupport

/// Issue 13, item 6: every `--json` output is JSON Lines as docs/json.md describes: one object a
/// line, events as objects, numbers as numbers, and one final `end` object whose `status` is
/// the exit status.
@Suite(.serialized) struct JSONOutputTests {
  static let eventKinds: Set<String> = ["input", "transition", "callback", "return", "call", "notification", "system", "crash", "expect", "note"]

  /// Parses `out` line by line and checks the convention; the lines before the end and the end.
  @discardableResult
  private func check(_ r: (status: Int32, out: String, err: String), command: String,
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> (lines: [[String: Any]], end: [String: Any]) {
    #expect(r.out.hasSuffix("\n"), sourceLocation: sourceLocation)
    var objects: [[String: Any]] = []
    for line in r.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
      let dictionary = try #require(object as? [String: Any], "not an object: \(line)", sourceLocation: sourceLocation)
      objects.append(dictionary)
    }
    let end = try #require(objects.last, sourceLocation: sourceLocation)
    #expect(end["kind"] as? String == "end", sourceLocation: sourceLocation)
    #expect(end["command"] as? String == command, sourceLocation: sourceLocation)
    #expect(end["status"] as? Int == Int(r.status), sourceLocation: sourceLocation)
    let lines = Array(objects.dropLast())
    for (index, line) in lines.enumerated() {
      let kind = line["kind"] as? String ?? ""
      if kind == "header" {
        #expect(command == "diff" && index == 0, sourceLocation: sourceLocation)
        let differs = line["differs"] as? [[String: Any]] ?? []
        #expect(!differs.isEmpty && differs.allSatisfy { $0["field"] is String }, sourceLocation: sourceLocation)
      } else if kind == "hunk" {
        #expect(command == "diff", sourceLocation: sourceLocation)
        for side in ["a", "b"] {
          let range = line[side] as? [String: Any]
          #expect(range?["start"] is Int && range?["count"] is Int, sourceLocation: sourceLocation)
        }
        for entry in line["lines"] as? [[String: Any]] ?? [] {
          #expect([" ", "-", "+"].contains(entry["op"] as? String ?? ""), sourceLocation: sourceLocation)
          try checkEvent(entry["event"], sourceLocation: sourceLocation)
        }
      } else {
        try checkEvent(line, sourceLocation: sourceLocation)
      }
    }
    return (lines, end)
  }

  /// An event object: seq and t numbers, a known kind.
  private func checkEvent(_ value: Any?, sourceLocation: SourceLocation) throws {
    let event = try #require(value as? [String: Any], "not an event: \(String(describing: value))", sourceLocation: sourceLocation)
    #expect(event["seq"] is Int && event["t"] is Int, "\(event)", sourceLocation: sourceLocation)
    #expect(Self.eventKinds.contains(event["kind"] as? String ?? ""), "\(event)", sourceLocation: sourceLocation)
    #expect(event["h"] == nil, sourceLocation: sourceLocation)
  }

  private func outcome(_ value: Any?, sourceLocation: SourceLocation = #_sourceLocation) {
    let o = value as? [String: Any]
    #expect(o?["state"] is String && o?["terminations"] is [Any] && o?["stored"] is [String: Any], sourceLocation: sourceLocation)
    let e = o?["expectations"] as? [String: Any]
    #expect(e?["passed"] is Int && e?["failed"] is Int, sourceLocation: sourceLocation)
  }

  @Test func runPrintsEventsThenItsOutcome() throws {
    let r = try lifesim(["run", "Scripts/scenarios/home_and_return.lua", "--json"])
    #expect(r.status == 0)
    let (lines, end) = try check(r, command: "run")
    #expect(lines.count == 72 && end["events"] as? Int == 72)
    #expect(end["t"] as? Int == 60_500_000 && end["seed"] as? Int == 1)
    outcome(end["outcome"])
    // A script error mid-run: the end line carries it, with status 2.
    let scenario = temp("json-error.lua")
    try "launch()\nunlock()\n".write(toFile: scenario, atomically: false, encoding: .utf8)
    let failed = try lifesim(["run", scenario, "--json"])
    #expect(failed.status == 2)
    let (_, stopped) = try check(failed, command: "run")
    #expect((stopped["outcome"] as? [String: Any])?["error"] as? String == "\(scenario):2: unlock(): the device is not locked (state: active)")
    // Refused before it started: only the end line, with the message.
    let missing = try lifesim(["run", "/nonexistent.lua", "--json"])
    #expect(missing.status == 2)
    #expect(missing.out == #"{"kind":"end","command":"run","status":2,"error":"/nonexistent.lua: cannot read: No such file or directory"}"# + "\n")
  }

  @Test func replayTraceStateVerifyAndApp() throws {
    let log = try recordedRun("json-replay.lifelog")
    let trace = try lifesim(["replay", log, "--json"])
    let (lines, end) = try check(trace, command: "replay")
    #expect(lines.count == 72 && end["complete"] as? Bool == true && end["events"] as? Int == 72)
    outcome(end["outcome"])
    let until = try check(try lifesim(["replay", log, "--json", "--until", "3"]), command: "replay")
    #expect(until.lines.count == 3 && until.end["until"] as? Int == 3 && until.end["complete"] == nil)

    // A log without its trailer: complete false, and where it was cut.
    let cut = temp("json-cut.lifelog")
    let text = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    try (text.prefix(11).joined(separator: "\n") + "\n").write(toFile: cut, atomically: false, encoding: .utf8)
    let cutOff = try check(try lifesim(["replay", cut, "--json"]), command: "replay")
    #expect(cutOff.lines.count == 10 && cutOff.end["complete"] as? Bool == false && cutOff.end["cutOffAfter"] as? Int == 10)
    #expect(cutOff.end["status"] as? Int == 2 && cutOff.end["error"] as? String == "\(cut): the log ends without a trailer after event 10")

    let state = try lifesim(["replay", log, "--json", "--state"])
    let (stateLines, stateEnd) = try check(state, command: "replay")
    #expect(stateLines.isEmpty)
    let s = stateEnd["state"] as? [String: Any]
    #expect(s?["app"] as? String == "active" && s?["t"] as? Int == 60_500_000)
    #expect((s?["stored"] as? [String: Any])?["draft"] as? String == "!")
    #expect(!state.out.contains("State at"))

    let verify = try lifesim(["replay", log, "--verify", "--json"])
    #expect(verify.status == 0)
    #expect(verify.out == #"{"kind":"end","command":"replay","status":0,"verdict":"identical","events":72}"# + "\n")

    let app = try lifesim(["replay", log, "--app", "Scripts/apps/overrun.lua", "--json"])
    #expect(app.status == 1)
    let (_, departs) = try check(app, command: "replay")
    #expect(departs["verdict"] as? String == "departs")
    let d = departs["divergence"] as? [String: Any]
    #expect(d?["seq"] as? Int == 48 && d?["t"] as? Int == 500_000)
    #expect((d?["recorded"] as? [String: Any])?["kind"] as? String == "return")
    #expect((d?["actual"] as? [String: Any])?["duration_us"] as? Int == 6_000_000)
    #expect((d?["before"] as? [[String: Any]])?.count == 5)
    #expect(d?["source"] as? String == "Scripts/apps/notes.lua:29")
  }

  @Test func verifyHasAJSONVerdict() throws {
    let log = try recordedRun("json-verify.lifelog")
    let ok = try lifesim(["verify", log, "--json"])
    #expect(ok.status == 0)
    #expect(ok.out == #"{"kind":"end","command":"verify","status":0,"log":"\#(log)","verdict":"intact","events":72,"message":"intact and complete: 72 events"}"# + "\n")
    var lines = try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "\n")
    lines[4] = lines[4].replacingOccurrences(of: "\"t\":0", with: "\"t\":1")
    try lines.joined(separator: "\n").write(toFile: log, atomically: false, encoding: .utf8)
    let damaged = try lifesim(["verify", log, "--json"])
    #expect(damaged.status == 1)
    let (_, end) = try check(damaged, command: "verify")
    #expect(end["verdict"] as? String == "damaged" && end["line"] as? Int == 5 && end["events"] as? Int == 3)
    #expect(end["reason"] as? String == "hash chain broken")
    let missing = try lifesim(["verify", "/nonexistent.lifelog", "--json"])
    #expect(missing.status == 2)
    #expect(try check(missing, command: "verify").end["verdict"] as? String == "unreadable")
  }

  @Test func diffPrintsHunksThenTheVerdictWithNumbersAsNumbers() throws {
    let a = try recordedRun("json-a.lifelog")
    let b = try recordedRun("json-b.lifelog", extra: ["--app", "Scripts/apps/overrun.lua"])
    let r = try lifesim(["diff", a, b, "--json"])
    #expect(r.status == 1)
    let (lines, end) = try check(r, command: "diff")
    #expect(lines.first?["kind"] as? String == "header")
    let hunks = lines.dropFirst()
    #expect(!hunks.isEmpty && hunks.allSatisfy { $0["kind"] as? String == "hunk" })
    #expect(end["same"] as? Bool == false)
    let first = end["firstDivergence"] as? [String: Any]
    #expect(first?["a"] as? Int == 48 && first?["b"] as? Int == 48 && first?["t"] as? Int == 500_000)
    let outcomes = end["outcomes"] as? [String: Any]
    #expect(outcomes?["differs"] as? [String] == ["terminations", "expectations"])
    let sideA = outcomes?["a"] as? [String: Any]
    #expect(sideA?["complete"] as? Bool == true && sideA?["events"] as? Int == 72)
    outcome(sideA?["outcome"])
    let same = try lifesim(["diff", a, a, "--json"])
    #expect(same.status == 0)
    let (none, sameEnd) = try check(same, command: "diff")
    #expect(none.isEmpty && sameEnd["same"] as? Bool == true && sameEnd["firstDivergence"] is NSNull)
  }
}
