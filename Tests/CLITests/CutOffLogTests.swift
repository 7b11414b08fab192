import Foundation
import Testing
import TestSupport

/// A log cut off before its trailer (a run killed by the OOM killer or a CI timeout) is trouble
/// for every command that needs the whole run, as the HTML and tables exports call it stopped:
/// replay exited 0, and `replay --verify` of a log cut just before its trailer said identical.
@Suite struct CutOffLogTests {
  /// The recorded run's first `lines` lines (the header is line 1), at a fresh path.
  private func cut(_ name: String, lines: Int) throws -> String {
    let log = try recordedRun(name + "-whole.lifelog")
    let text = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    let path = temp(name + ".lifelog")
    try (text.prefix(lines).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func everyReplayFormExitsTwoSayingWhereTheLogEnds() throws {
    let log = try cut("cut-replay", lines: 20)
    let message = "lifesim: \(log): the log ends without a trailer after event 19\n"
    let forms: [[String]] = [[], ["--state"], ["--json"], ["--state", "--json"], ["--numbers"], ["--until", "25"],
                             ["--until", "1000s"], ["--verify"], ["--app", "Scripts/apps/notes.lua"], ["--verify", "--json"]]
    for form in forms {
      let r = try lifesim(["replay", log] + form, env: ["NO_COLOR": "1"])
      #expect(r.status == 2 && r.err == message, "\(form): \(r.status) \(r.err)")
    }
    let json = try lifesim(["replay", log, "--json"]).out.split(separator: "\n").last.map(String.init)
    #expect(json?.hasPrefix(#"{"kind":"end","command":"replay","status":2,"events":19,"t":0,"seed":1,"complete":false,"cutOffAfter":19,"outcome":"#) == true)
    #expect(json?.hasSuffix(#","error":"\#(log): the log ends without a trailer after event 19"}"#) == true, "\(json ?? "")")
  }

  @Test func aReplayUpToAnEventBeforeTheCutIsWhole() throws {
    let log = try cut("cut-until", lines: 20)
    for form in [["--until", "19"], ["--until", "5", "--state"], ["--until", "19", "--json"]] {
      let r = try lifesim(["replay", log] + form)
      #expect(r.status == 0 && r.err.isEmpty, "\(form): \(r.err)")
    }
  }

  @Test func aLogCutJustBeforeItsTrailerIsNotIdenticalToItsReRun() throws {
    let log = try cut("cut-trailer", lines: 73)
    for form in [["--verify"], ["--app", "Scripts/apps/notes.lua"], []] {
      let r = try lifesim(["replay", log] + form)
      #expect(r.status == 2 && r.err == "lifesim: \(log): the log ends without a trailer after event 72\n", "\(form): \(r.out) \(r.err)")
    }
  }

  @Test func aReRunThatDepartsBeforeTheCutStillDeparts() throws {
    let log = try cut("cut-departs", lines: 73)
    let r = try lifesim(["replay", log, "--app", "Scripts/apps/overrun.lua"])
    #expect(r.status == 1 && r.err.isEmpty && r.out.hasPrefix("Departs at event "), "\(r.out) \(r.err)")
  }

  @Test func diffOfACutLogIsTroubleAndStillPrinted() throws {
    let log = try cut("cut-diff", lines: 20)
    let whole = try recordedRun("cut-diff-b.lifelog")
    let r = try lifesim(["diff", log, whole], env: ["NO_COLOR": "1"])
    #expect(r.status == 2 && r.err == "lifesim: \(log): the log ends without a trailer after event 19\n")
    #expect(r.out.contains("final state   cut off after event 19"))
    let same = try lifesim(["diff", log, log])
    #expect(same.status == 2 && same.err == "lifesim: \(log): the log ends without a trailer after event 19\n" + "lifesim: \(log): the log ends without a trailer after event 19\n")
  }

  @Test func verifySaysCutOffAsBefore() throws {
    let log = try cut("cut-verify", lines: 20)
    let r = try lifesim(["verify", log])
    #expect(r.status == 1 && r.out == "\(log): cut off after event 19 (no trailer)\n")
  }
}
