import EventStore
import Lifecycle

/// The simulator's event sink: numbers each event, queues it for the log (when there is
/// one), and hands it to the caller's `onEvent`.
///
/// A class of its own rather than a closure over `ScenarioHost`, so the simulator can hold
/// it strongly without a cycle: a `[weak self]` capture made every event load a weak
/// reference and retain the host through its side table (about 8 % of a run, measured).
final class EventRecorder {
  /// The number of events recorded (the last `seq`).
  private(set) var seq: Int64 = 0
  /// Set when the log could not be written; nothing more is queued after that.
  private(set) var writeError: LogWriteError?
  /// Set when an event did not fit the log format: the run stops, the log takes its trailer.
  private(set) var stopped: LogWriteError?
  private let writer: BackgroundLogWriter?
  private let onEvent: (Int64, Event) -> Void
  /// Called once, with the error, when the log cannot be written (the run should stop).
  private let onWriteFailure: (LogWriteError) -> Void

  init(writer: BackgroundLogWriter?, onEvent: @escaping (Int64, Event) -> Void,
       onWriteFailure: @escaping (LogWriteError) -> Void) {
    self.writer = writer
    self.onEvent = onEvent
    self.onWriteFailure = onWriteFailure
  }

  func record(_ event: Event) {
    // The run is stopping on an event the log format cannot hold: nothing after it is recorded.
    guard stopped == nil else { return }
    if let writer, writeError == nil {
      do {
        try writer.append(t: event.t, kind: event.body.kind) { event.body.encodeFields(into: &$0) }
      } catch {
        if case .outOfLimits = error { stopped = error } else { writeError = error }
        onWriteFailure(error)
        if stopped != nil { return }
      }
    } else if let problem = LogLimits.problem(seq: seq + 1, t: event.t) {
      // Time and sequence limits hold without a log too (line length needs the encoding).
      let error = LogWriteError.outOfLimits(path: "the run", reason: problem)
      stopped = error
      onWriteFailure(error)
      return
    }
    seq += 1
    onEvent(seq, event)
  }

  /// Writes the trailer, unless writing already failed (then that error is the run's).
  func finish(outcome: JSONValue) throws(LogWriteError) {
    guard let writer, writeError == nil else { return }
    try writer.finish(outcome: outcome)
  }
}
