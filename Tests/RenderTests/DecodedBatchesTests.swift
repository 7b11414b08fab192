import EventStore
import Lifecycle
import Render
import Testing

/// `DecodedBatches` (a batch decoded ahead, in halves, on other threads) hands out the events
/// that decoding one at a time gives, in order, and stops where `--until` says.
@Suite struct DecodedBatchesTests {
  @Test func everyEventInOrderAsDecodedOneAtATime() throws {
    for log in BundledLogs.all {
      let reference = try BundledLogs.events(log)
      var handed: [(seq: Int64, event: Event)] = []
      let (count, stopped) = try DecodedBatches.forEach(try LogEventStream(path: log)) { seq, event in handed.append((seq, copy event)) }
      #expect(count == Int64(reference.count) && !stopped, "\(log)")
      #expect(handed.map(\.seq) == reference.map(\.seq), "\(log)")
      #expect(handed.map(\.event) == reference.map(\.event), "\(log)")
    }
  }

  @Test func untilStopsAfterTheLastEventItIncludes() throws {
    for log in BundledLogs.all.prefix(20) {
      let reference = try BundledLogs.events(log)
      guard let middle = reference.dropFirst(reference.count / 2).first else { continue }
      for limit in [ReplayLimit.event(middle.seq), .time(middle.event.t)] {
        let expected = reference.prefix { !limit.excludes(seq: $0.seq, t: $0.event.t) }
        var handed: [Int64] = []
        let (count, stopped) = try DecodedBatches.forEach(try LogEventStream(path: log), until: limit) { seq, _ in handed.append(seq) }
        #expect(handed == expected.map(\.seq) && count == Int64(expected.count), "\(log) \(limit)")
        #expect(stopped == (expected.count < reference.count), "\(log) \(limit)")
      }
    }
  }
}
