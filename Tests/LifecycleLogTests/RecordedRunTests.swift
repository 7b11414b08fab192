import EventStore
import Foundation
import JSON
@testable import Lifecycle
import LifecycleLog
import Testing
import TestSupport

/// Every reader the library opens a log with checks the header's content itself, so a crafted
/// header (its chain intact: the chain has no secret) is refused in a test as in the binary.
@Suite struct RecordedRunTests {
  /// A complete log whose header sets `backgroundTaskAllowance_us` to Int64.max, written with a
  /// sound chain.
  private func craftedLog() throws -> String {
    let fields = Profile(ios: 17).json.objectValue!.map { $0.0 == "backgroundTaskAllowance_us" ? ($0.0, JSONValue.int(.max)) : $0 }
    let header = LogHeader(lifesim: "0.4.0", lua: "Lua 5.4", profile: .object(fields), scenes: true, seed: 1, scripts: [])
    let path = temporaryPath("recorded-run", "crafted.lifelog")
    try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let writer = try LogWriter(path: path, header: header, options: .init(overwrite: true))
    try writer.finish(outcome: .object([]))
    return path
  }

  @Test func everyReaderRefusesACraftedHeaderInProcess() throws {
    let path = try craftedLog()
    let range = try #require(Profile.knobs.first { $0.recordKey == "backgroundTaskAllowance_us" }?.recordRange)
    let reason = "header: profile: knob backgroundTaskAllowance_us is \(Int64.max), outside its range \(range.lowerBound)…\(range.upperBound)"
    let expected = LogProblem.unreadable("\(path): line 1: \(reason)")
    // EventStore's reader checks only the form: the header is well formed and its chain holds.
    #expect(try LogReader(path: path).header.seed == 1)
    #expect(throws: expected) { try RecordedLog.reader(path) }
    #expect(throws: expected) { try RecordedLog.scanner(path, checksChain: true) }
    #expect(throws: expected) { try RecordedLog.stream(path) }
    #expect(RecordedLog.verify(path) == .unreadable("\(path): line 1: \(reason)"))
  }

  @Test func aSoundHeaderIsTypedOnce() throws {
    let header = LogHeader(lifesim: "0.4.0", lua: "Lua 5.4", profile: Profile(ios: 26).json, scenes: true, seed: 3, scripts: [])
    let run = try RecordedRun(header: header)
    #expect(run.profile == Profile(ios: 26) && run.header.seed == 3)
  }
}
