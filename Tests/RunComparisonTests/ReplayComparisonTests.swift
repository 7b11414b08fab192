import EventStore
import Foundation
import Lifecycle
import RunComparison
import Testing

@Suite struct ReplayComparisonTests {
  private func compare(recorded: [Recorded], rerun: [Recorded], ignoreSource: Bool = false, name: String) throws -> ReplayComparison {
    let path = try writeLog(name, recorded)
    let comparison = ReplayComparison(recording: BackgroundLogScanner(try LogScanner(path: path, checksChain: true)), ignoreSource: ignoreSource)
    for (i, e) in rerun.enumerated() { comparison.check(seq: Int64(i + 1), try e.event(seq: Int64(i + 1))) }
    comparison.finish()
    return comparison
  }

  @Test func theSameEventsAreIdentical() throws {
    let events: [Recorded] = [.launch(at: 1), .note("a"), .note("b", t: 5)]
    let c = try compare(recorded: events, rerun: events, name: "same.lifelog")
    #expect(c.divergence == nil && c.problem == nil)
  }

  @Test func aDifferentEventIsTheDivergenceWithTheEventsBeforeIt() throws {
    let c = try compare(recorded: [.launch(at: 1), .note("a"), .note("b", t: 7), .note("c", t: 7)],
                        rerun: [.launch(at: 1), .note("a"), .note("B", t: 5), .note("c", t: 7)], name: "differs.lifelog")
    let d = try #require(c.divergence)
    #expect(d.seq == 3 && d.t == 5)
    #expect(d.recorded == #"{"seq":3,"t":7,"kind":"note","name":"print","message":"b"}"#)
    #expect(d.actual == #"{"seq":3,"t":5,"kind":"note","name":"print","message":"B"}"#)
    #expect(d.before == [#"{"seq":1,"t":0,"kind":"input","name":"launch","at":"s.lua:1"}"#,
                         #"{"seq":2,"t":0,"kind":"note","name":"print","message":"a"}"#])
    #expect(d.source == nil)
  }

  @Test func theScriptLineCountsUnlessIgnored() throws {
    let strict = try compare(recorded: [.launch(at: 1)], rerun: [.launch(at: 2)], name: "line.lifelog")
    #expect(strict.divergence?.seq == 1)
    #expect(strict.divergence?.source == "s.lua:2")
    let ignoring = try compare(recorded: [.launch(at: 1)], rerun: [.launch(at: 2)], ignoreSource: true, name: "line-ignored.lifelog")
    #expect(ignoring.divergence == nil)
  }

  @Test func aRunThatEndsFirstDepartsWhereItEnds() throws {
    let longer = try compare(recorded: [.launch(at: 1)], rerun: [.launch(at: 1), .note("more")], name: "longer.lifelog")
    #expect(longer.divergence?.seq == 2)
    #expect(longer.divergence?.recorded == "(the recording ends here)")
    let shorter = try compare(recorded: [.launch(at: 1), .note("more", t: 3)], rerun: [.launch(at: 1)], name: "shorter.lifelog")
    #expect(shorter.divergence?.seq == 2 && shorter.divergence?.t == 3)
    #expect(shorter.divergence?.actual == "(this run ends here)")
    #expect(shorter.divergence?.recorded == #"{"seq":2,"t":3,"kind":"note","name":"print","message":"more"}"#)
  }

  @Test func aDamagedRecordingIsAProblemNotADivergence() throws {
    let path = try writeLog("damaged.lifelog", [.launch(at: 1), .note("a"), .note("b")])
    var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
    lines[2] = lines[2].replacingOccurrences(of: "\"a\"", with: "\"x\"")
    try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
    let c = ReplayComparison(recording: BackgroundLogScanner(try LogScanner(path: path, checksChain: true)), ignoreSource: false)
    for (i, e) in [Recorded.launch(at: 1), .note("a"), .note("b")].enumerated() { c.check(seq: Int64(i + 1), try e.event(seq: Int64(i + 1))) }
    c.finish()
    #expect(c.problem?.description == "line 3: hash chain broken")
    #expect(c.divergence == nil)
  }
}
