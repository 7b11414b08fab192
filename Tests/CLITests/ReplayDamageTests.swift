import Foundation
import Testing
import TestSupport

/// `replay --verify` and `--app` compare each recorded line's bytes with the re-run's: a line that
/// differs because it is damaged (a key twice, a kind no log has) is damage, exit 2 with its line
/// as `verify` names it, not a divergence (exit 1).
@Suite struct ReplayDamageTests {
  @Test func aDuplicateKeyIsDamageWithItsLine() throws {
    let log = try crafted(try recordedRun("dup-source.lifelog"), "dup.lifelog", line: 5,
                          #""kind":"callback""#, #""kind":"callback","kind":"callback""#)
    let message = "lifesim: \(log): line 5: not JSON (duplicate key \"kind\" at byte 40)\n"
    #expect(try lifesim(["verify", log]).out == "\(log): line 5: not JSON (duplicate key \"kind\" at byte 40)\n")
    for form in [["--verify"], ["--app", "Scripts/apps/notes.lua"]] {
      let r = try lifesim(["replay", log] + form)
      #expect(r.status == 2 && r.out.isEmpty && r.err == message, "\(form): \(r.status) \(r.out) \(r.err)")
    }
    let diff = try lifesim(["diff", try recordedRun("dup-b.lifelog"), log])
    #expect(diff.status == 2 && diff.err == message, "\(diff.err)")
    let json = try lifesim(["replay", log, "--verify", "--json"])
    #expect(json.status == 2 && json.out == #"{"kind":"end","command":"replay","status":2,"error":"\#(log): line 5: not JSON (duplicate key \"kind\" at byte 40)"}"# + "\n")
  }

  @Test func aDepthNoRunNestsToIsRefusedNotATrap() throws {
    // A callback's depth at Int64.max indented the trace by that many spaces (SIGILL).
    let source = try recordedRun("depth-source.lifelog")
    for depth in ["9223372036854775807", "-9223372036854775808", "-1", "1001"] {
      let log = try crafted(source, "depth.lifelog", line: 5, #""depth":0"#, #""depth":\#(depth)"#)
      for args in [["replay", log], ["replay", log, "--state"], ["export", log, "--format", "chrome-trace"]] {
        let r = try lifesim(args)
        #expect(r.status == 2 && r.err == "lifesim: \(log): event 4: depth \(depth) is outside its range 0…1000\n", "\(args): \(r.status) \(r.err)")
      }
      let diff = try lifesim(["diff", source, log])
      #expect(diff.status == 2 && diff.err == "lifesim: \(log): event 4: depth \(depth) is outside its range 0…1000\n", "\(diff.err)")
    }
  }

  @Test func anAfterDelayPastTheLatestTimeIsRefusedNotATrap() throws {
    // after(…)'s delay at Int64.max overflowed the fold's due time (SIGILL in replay, coverage, exports).
    let source = try recordedRun("delay-source.lifelog", scenario: "Scripts/scenarios/background_fetch.lua")
    let line = try #require(try String(contentsOfFile: source, encoding: .utf8).split(separator: "\n").firstIndex { $0.contains(#""delay_us":"#) }) + 1
    let recorded = try #require(try String(contentsOfFile: source, encoding: .utf8).split(separator: "\n")[line - 1].firstMatch(of: /"delay_us":[0-9]+/))
    let log = try crafted(source, "delay.lifelog", line: line, String(recorded.output), #""delay_us":9223372036854775807"#)
    for args in [["replay", log], ["replay", log, "--state"], ["coverage", log], ["export", log, "--format", "chrome-trace"]] {
      let r = try lifesim(args)
      #expect(r.status == 2 && r.err == "lifesim: \(log): event \(line - 1): delay_us 9223372036854775807 is outside its range 0…999999999999999999\n",
              "\(args): \(r.status) \(r.err)")
    }
  }

  @Test func aKindNoLogHasIsDamageWithItsLine() throws {
    let log = try crafted(try recordedRun("kind-source.lifelog"), "kind.lifelog", line: 5, #""kind":"callback""#, "\"kind\":\"call\u{9B}back\"")
    let r = try lifesim(["replay", log, "--verify"])
    #expect(r.status == 2 && r.err == "lifesim: \(log): line 5: unknown event kind \"call\\u{9B}back\"\n", "\(r.status) \(r.err)")
    let v = try lifesim(["verify", log])
    #expect(v.status == 1 && v.out == "\(log): line 5: unknown event kind \"call\\u{9B}back\"\n", "\(v.out)")
  }
}
