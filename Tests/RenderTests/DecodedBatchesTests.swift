import EventStore
import Lifecycle
import Render
import Testing
import TestSupport

/// `DecodedBatches` (each part of a chunk decoded by the task that checked it, or a batch
/// decoded where it is handed out) hands out the events that decoding one at a time gives, in
/// order, stops where `--until` says, and meets a body that does not decode where decoding
/// one at a time does.
@Suite struct DecodedBatchesTests {
  /// The log at `path` read without followers, and with `DecodedBatches.follower`.
  private func streams(_ path: String) throws -> [(name: String, stream: LogEventStream)] {
    [("decoded here", try LogEventStream(path: path)), ("followed", try LogEventStream(path: path, following: DecodedBatches.follower))]
  }

  @Test func everyEventInOrderAsDecodedOneAtATime() throws {
    for log in BundledLogs.all {
      let reference = try BundledLogs.events(log)
      for (name, stream) in try streams(log) {
        var handed: [(seq: Int64, event: Event)] = []
        let (count, stopped) = try DecodedBatches.forEach(stream) { seq, t, body in handed.append((seq, Event(t: t, body))) }
        #expect(count == Int64(reference.count) && !stopped, "\(log) \(name)")
        #expect(handed.map(\.seq) == reference.map(\.seq), "\(log) \(name)")
        #expect(handed.map(\.event) == reference.map(\.event), "\(log) \(name)")
      }
    }
  }

  /// Parts whose followers are not `DecodedBatches`' own: their events are decoded where they
  /// are handed out, none left out.
  @Test func partsFollowedBySomethingElseAreDecodedHere() throws {
    final class Idle: FoldPartFollower { func follow(_ events: LogEventBatch) {} }
    for log in BundledLogs.all.prefix(10) {
      let reference = try BundledLogs.events(log)
      var handed: [Int64] = []
      let (count, _) = try DecodedBatches.forEach(try LogEventStream(path: log, following: { Idle() })) { seq, _, _ in handed.append(seq) }
      #expect(count == Int64(reference.count) && handed == reference.map(\.seq), "\(log)")
    }
  }

  @Test func untilStopsAfterTheLastEventItIncludes() throws {
    for log in BundledLogs.all.prefix(20) {
      let reference = try BundledLogs.events(log)
      guard let middle = reference.dropFirst(reference.count / 2).first else { continue }
      for limit in [ReplayLimit.event(middle.seq), .time(middle.event.t)] {
        let expected = reference.prefix { !limit.excludes(seq: $0.seq, t: $0.event.t) }
        for (name, stream) in try streams(log) {
          var handed: [Int64] = []
          let (count, stopped) = try DecodedBatches.forEach(stream, until: limit) { seq, _, _ in handed.append(seq) }
          #expect(handed == expected.map(\.seq) && count == Int64(expected.count), "\(log) \(limit) \(name)")
          #expect(stopped == (expected.count < reference.count), "\(log) \(limit) \(name)")
        }
      }
    }
  }

  /// A log of 30,000 events (several chunks of several parts) whose event 20,000 is a callback
  /// lifesim does not know: every event before it is handed out, then its decoding error is
  /// thrown, as decoding one at a time meets it; a limit before it stops short of it.
  @Test func aBodyThatDoesNotDecodeIsMetInTheLogsOrder() throws {
    let path = temporaryPath("lifesim-decoded-batches", "undecodable.lifelog")
    let header = LogHeader(lifesim: "0.1.0", lua: "Lua 5.4", profile: .object([("ios", .int(17))]), scenes: true, seed: 1, scripts: [])
    let writer = try LogWriter(path: path, header: header)
    let bad: Int64 = 20_000
    for seq in Int64(1)...30_000 {
      if seq == bad {
        try writer.append(t: seq, kind: .callback) { f in
          f.field("name", "noSuchCallback(_:)")
          f.field("target", "AppDelegate")
        }
      } else {
        try writer.append(t: seq, kind: .system) { EventBody.suspended.encodeFields(into: &$0) }
      }
    }
    try writer.finish(outcome: .null)
    var expectedError = ""
    let oneAtATime = try LogEventStream(path: path)
    while let e = try oneAtATime.next() {
      do { _ = try Event(e) } catch {
        expectedError = "\(error)"
        break
      }
    }
    #expect(expectedError.contains("\(bad)"))
    for (name, stream) in try streams(path) {
      var handed: Int64 = 0, met = ""
      do {
        _ = try DecodedBatches.forEach(stream) { seq, _, _ in
          handed += 1
          if seq != handed { Issue.record("\(name): event \(seq) handed out as number \(handed)") }
        }
      } catch {
        met = "\(error)"
      }
      #expect(met == expectedError && handed == bad - 1, "\(name): \(met)")
    }
    for (name, stream) in try streams(path) {
      let (count, stopped) = try DecodedBatches.forEach(stream, until: .event(bad - 1)) { _, _, _ in }
      #expect(count == bad - 1 && stopped, "\(name)")
    }
  }
}
