import EventStore
import Lifecycle
import Render
import Testing

/// The trace read from a log file (`TraceText.lines(ofLogAt:seqs:)`, what the suite shows of a
/// failure) is the trace of the same events in memory.
@Suite struct TraceTextTests {
  @Test func theLinesOfARangeOfALogAreTheTraceOfItsEvents() throws {
    #expect(BundledLogs.all.count >= 100)
    for log in BundledLogs.all {
      let events = try BundledLogs.events(log)
      let whole = Self.plainTrace(events)
      #expect(whole.count == events.count)
      guard let last = events.last?.seq else { continue }
      for seqs in [1...last, 1...1, max(1, last / 2 - 8)...(last / 2 + 3), max(1, last - 8)...(last + 3)] {
        let expected = zip(events, whole).filter { seqs.contains($0.0.seq) }.map(\.1)
        #expect(try TraceText.lines(ofLogAt: log, seqs: seqs) == expected, "\(log), \(seqs)")
      }
    }
  }

  /// Every range of a few lines, on a few logs.
  @Test func everyShortRange() throws {
    for log in BundledLogs.all.prefix(6) {
      let events = try BundledLogs.events(log)
      let whole = Self.plainTrace(events)
      for start in Int64(1)...Int64(min(whole.count + 2, 60)) {
        let seqs = start...(start + 11)
        let expected = zip(events, whole).filter { seqs.contains($0.0.seq) }.map(\.1)
        #expect(try TraceText.lines(ofLogAt: log, seqs: seqs) == expected, "\(log), \(seqs)")
      }
    }
  }

  /// The reference: every event's line from the first on, as `lifesim run` prints them.
  private static func plainTrace(_ events: [(seq: Int64, event: Event)]) -> [String] {
    var trace = TraceFormatter()
    return events.map { trace.line(seq: $0.seq, $0.event) }
  }

  @Test func aLogThatCannotBeReadThrows() {
    #expect(throws: (any Error).self) { try TraceText.lines(ofLogAt: "/nonexistent/x.lifelog", seqs: 1...3) }
  }
}
