import EventStore
import JSON
import Lifecycle
import LifecycleLog

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
  /// Set when the run must stop before an event (it does not fit the log format, or the run
  /// reached `maxEvents`): nothing more is recorded, and the log still takes its trailer.
  private(set) var stopped: String?
  private let writer: BackgroundLogWriter?
  private let maxEvents: Int64
  private let onEvent: (Int64, Event) -> Void
  /// Called once, with the message, when the run must stop (a write failure or a limit).
  private let onStop: (String) -> Void

  init(writer: BackgroundLogWriter?, maxEvents: Int64, onEvent: @escaping (Int64, Event) -> Void,
       onStop: @escaping (String) -> Void) {
    self.writer = writer
    self.maxEvents = maxEvents
    self.onEvent = onEvent
    self.onStop = onStop
  }

  func record(_ event: Event) {
    guard stopped == nil else { return }
    if seq >= maxEvents {
      return stop("the run reached --max-events \(maxEvents) and stopped there; the log holds every event so far "
                  + "(raise the limit with --max-events N, or advance in smaller steps)")
    }
    if let writer, writeError == nil {
      do {
        try writer.append(t: event.t, kind: event.body.kind) { event.body.encodeFields(into: &$0) }
      } catch {
        guard case .outOfLimits = error else {
          writeError = error
          onStop(error.description)
          return
        }
        return stop(error.description)
      }
    } else if let problem = LogLimits.problem(seq: seq + 1, t: event.t) {
      // Time and sequence limits hold without a log too (line length needs the encoding).
      return stop(problem)
    }
    seq += 1
    onEvent(seq, event)
  }

  private func stop(_ message: String) {
    stopped = message
    onStop(message)
  }

  /// Writes the trailer, unless writing already failed (then that error is the run's).
  func finish(outcome: JSONValue) throws(LogWriteError) {
    guard let writer, writeError == nil else { return }
    try writer.finish(outcome: outcome)
  }
}
