import EventStore
import Lifecycle
import Render
import Testing

/// The trace read from a log file (`TraceText.lastLines`, what the suite shows of a failure) is
/// the trace of the same events in memory.
@Suite struct TraceTextTests {
  @Test func theLastLinesOfALogAreTheTraceOfItsEvents() throws {
    #expect(BundledLogs.all.count >= 100)
    for log in BundledLogs.all {
      let events = try BundledLogs.events(log)
      let whole = TraceText.lines(of: events)
      #expect(whole.count == events.count)
      for count in [0, 1, 11, 40, whole.count + 5] {
        #expect(try TraceText.lastLines(ofLogAt: log, count: count) == Array(whole.suffix(count)), "\(log), \(count) lines")
      }
      for through in [events.first?.seq, events.dropFirst(events.count / 2).first?.seq].compactMap({ $0 }) {
        let upTo = TraceText.lines(of: events.filter { $0.seq <= through })
        #expect(try TraceText.lastLines(ofLogAt: log, through: through, count: 11) == Array(upTo.suffix(11)), "\(log) through \(through)")
      }
    }
  }

  /// Every count, around where the lines held are cut back, on a few logs.
  @Test func everyCountOfLastLines() throws {
    for log in BundledLogs.all.prefix(6) {
      let whole = TraceText.lines(of: try BundledLogs.events(log))
      for count in 0...min(whole.count + 2, 80) {
        #expect(try TraceText.lastLines(ofLogAt: log, count: count) == Array(whole.suffix(count)), "\(log), \(count) lines")
      }
    }
  }

  @Test func aLogThatCannotBeReadIsNamed() {
    #expect(throws: TraceText.Problem.self) { try TraceText.lastLines(ofLogAt: "/nonexistent/x.lifelog", count: 3) }
    do { _ = try TraceText.lastLines(ofLogAt: "/nonexistent/x.lifelog", count: 3) } catch {
      #expect(error.description.hasPrefix("/nonexistent/x.lifelog: "))
    }
  }
}
