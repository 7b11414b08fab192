import EventStore
import Lifecycle
import LifecycleLog

/// The trace (the text `lifesim run` prints, one line per event) of a run's events, read from its
/// log, for reports that show what happened around a point.
package enum TraceText {
  /// The trace lines of the events numbered `seqs` in the log at `path`, read as a stream from
  /// the log's first event (a line's nesting depends on the events before it) and no further
  /// than the range's end; each line is as `TraceFormatter` writes it. What a suite shows of a
  /// failure: no case holds its events in memory. Throws the log's reading or decoding error.
  package static func lines(ofLogAt path: String, seqs: ClosedRange<Int64>) throws -> [String] {
    let stream = try RecordedLog.stream(path)
    var trace = TraceFormatter()
    var lines: [String] = []
    while let logEvent = try stream.next() {
      let line = trace.line(seq: logEvent.seq, try Event(logEvent))
      if seqs.contains(logEvent.seq) { lines.append(line) }
      if logEvent.seq >= seqs.upperBound { break }
    }
    return lines
  }
}
