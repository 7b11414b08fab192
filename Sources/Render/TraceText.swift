import EventStore
import Lifecycle

/// The trace (the text `lifesim run` prints, one line per event) of a run's events, for reports
/// that show what happened around a point: from events in memory, or from a log file.
package enum TraceText {
  /// One line per event, in order, as `TraceFormatter` writes them from the first event on.
  package static func lines(of events: some Sequence<(seq: Int64, event: Event)>) -> [String] {
    var trace = TraceFormatter()
    return events.map { trace.line(seq: $0.seq, $0.event) }
  }

  /// The last `count` lines of the trace of the log at `path`, up to and including event
  /// `lastSeq` (nil: to the log's end). Each line is as `lines(of:)` writes it: the trace is
  /// formatted from the log's first event, so the nesting is the run's.
  package static func lastLines(ofLogAt path: String, through lastSeq: Int64? = nil, count: Int) throws(Problem) -> [String] {
    var trace = TraceFormatter()
    let count = max(0, count)
    var kept: [String] = []
    do {
      let stream = try LogEventStream(path: path)
      while let logEvent = try stream.next() {
        if let lastSeq, logEvent.seq > lastSeq { break }
        let line = trace.line(seq: logEvent.seq, try Event(logEvent))
        // At most twice `count` lines are held: the older half goes when it is full.
        if kept.count >= 2 * count { kept.removeFirst(kept.count - count) }
        kept.append(line)
      }
    } catch {
      throw Problem(description: "\(path): \(error)")
    }
    return Array(kept.suffix(count))
  }

  /// Why a log's trace could not be made: the file and what is wrong with it.
  package struct Problem: Error, CustomStringConvertible {
    package let description: String
  }
}
