import Foundation
import Testing
import TestSupport

/// Issues 13 and 20: no "Outcome" line when lifesim refuses to start, and an outcome short
/// enough to read whatever the app stored.
@Suite(.serialized) struct OutcomeLineTests {
  @Test func aRefusalToStartPrintsOnlyItsMessage() throws {
    let existing = try recordedRun("outcome-existing.lifelog", scenario: "Scripts/scenarios/cold_launch.lua")
    let cases: [([String], String)] = [
      (["run", "/nonexistent.lua"], "lifesim: /nonexistent.lua: cannot read: No such file or directory\n"),
      (["run", "Scripts/scenarios/cold_launch.lua", "-o", existing],
       "lifesim: \(existing): already exists; refusing to overwrite it (pass --force to replace it)\n"),
      (["run", "Scripts/scenarios/cold_launch.lua", "-o", "Scripts"], "lifesim: Scripts: is a directory\n"),
      (["run", "Scripts/scenarios/cold_launch.lua", "-o", "/dev/full", "--force"], "lifesim: /dev/full: truncate failed: Invalid argument\n"),
    ]
    for (args, message) in cases {
      for quiet in [[], ["-q"]] {
        let r = try lifesim(args + quiet)
        #expect(r.status == 2, "\(args + quiet)")
        #expect(r.out == "", "\(args + quiet)")
        #expect(r.err == message, "\(args + quiet)")
      }
      // JSON: no outcome, only the end line carrying the message (docs/json.md).
      let json = try lifesim(args + ["--json"])
      #expect(json.status == 2 && json.err == message)
      let text = message.dropFirst("lifesim: ".count).dropLast().replacingOccurrences(of: "\"", with: "\\\"")
      #expect(json.out == #"{"kind":"end","command":"run","status":2,"error":""# + text + "\"}\n")
    }
    let usage = try lifesim(["run", "Scripts/scenarios/cold_launch.lua", "--ios", "99", "-q"])
    #expect(usage.status == 2 && usage.out == "")
  }

  @Test func aHeldLockIsARefusalWithoutAnOutcome() throws {
    let log = try recordedRun("outcome-locked.lifelog", scenario: "Scripts/scenarios/cold_launch.lua")
    let r = try shell("flock '\(log)' '\(lifesimBinary)' run Scripts/scenarios/cold_launch.lua -o '\(log)' --force")
    #expect(r.status == 2)
    #expect(r.out == "")
    #expect(r.err == "lifesim: \(log): another lifesim process is writing this log; refusing to write it too\n")
  }

  @Test func longStoredValuesAreAbbreviatedInTheOutcome() throws {
    let app = temp("big-store.lua")
    try """
      app { root = "Home" }
      controller "Home" {}
      function AppDelegate.didFinishLaunchingWithOptions(application, options)
        store("big", ("é"):rep(2000000))
        store("small", { 1, 2 })
        return true
      end

      """.write(toFile: app, atomically: false, encoding: .utf8)
    let log = temp("big-store.lifelog")
    let r = try lifesim(["run", "Scripts/scenarios/cold_launch.lua", "--app", app, "-q", "-o", log])
    #expect(r.status == 0)
    // The JSON text's quote and 59 characters, then how long the whole text is.
    let big = "big = \"" + String(repeating: "é", count: 59) + "… (4000002 bytes)"
    #expect(r.out.contains(" Stored: \(big), small = [1,2]. Seed 1"))
    #expect(r.out.utf8.count < 600)
    let replay = try lifesim(["replay", log])
    #expect(replay.out.contains(" Stored: \(big), small = [1,2]. Seed 1."))
    let diff = try lifesim(["diff", log, log])
    #expect(diff.out.contains("\(big), small = [1,2]"))
    // Two values that differ only past what the table shows still differ.
    let other = temp("big-store-2.lua")
    try String(contentsOfFile: app, encoding: .utf8).replacingOccurrences(of: #"("é"):rep(2000000)"#, with: #"("é"):rep(1999999) .. "x""#)
      .write(toFile: other, atomically: false, encoding: .utf8)
    let log2 = temp("big-store-2.lifelog")
    #expect(try lifesim(["run", "Scripts/scenarios/cold_launch.lua", "--app", other, "-q", "-o", log2]).status == 0)
    let differs = try lifesim(["diff", log, log2], env: ["NO_COLOR": "1"])
    #expect(differs.status == 1)
    let row = differs.out.split(separator: "\n").first { $0.hasPrefix("stored") }.map(String.init) ?? ""
    #expect(row.hasSuffix("(4000001 bytes), small = [1,2]   ← differs"))
  }
}
