import EventStore
import JSON
import Lifecycle
import LifecycleLog

/// `replay LOG` without `--verify` or `--app`: the recorded trace (its events as JSON with
/// `json`), or with `state` the state folded from the events, from the log alone: no script runs.
package struct RecordedTrace {
  /// The log's path, as messages name it.
  package let log: String
  /// `--until`: where the replay stops.
  package var until: ReplayLimit?
  /// `--numbers`: each trace line shows its event's number.
  package var numbers = false
  /// `--state`: the state rebuilt, not the trace.
  package var state = false
  /// `--json`: the events as JSON Lines.
  package var json = false

  /// A replay of the log at `log`.
  package init(log: String) { self.log = log }

  /// How a replay ended: its exit status and what it reports after the events.
  package struct Ending {
    /// 0, or 2 for a log that cannot be read to its end, a run that stopped on a script error, or a
    /// log cut off before its trailer.
    package var status: Int32
    /// A log that could not be read: the message, and nothing else is reported.
    package var unreadable: String?
    /// The members of `--json`'s end line.
    package var endMembers: [(String, JSONValue)] = []
    /// Without `--json`: the lines after the trace (the outcome, or the state).
    package var text: [String] = []
    /// The messages for standard error, after everything else.
    package var errors: [String] = []
  }

  /// Writes the events of `stream` (their trace lines, or with `json` their objects; none with
  /// `state`) to `sink`; `onEvent` is called for each. How it ended.
  package func write(_ stream: LogEventStream, to sink: any ExportSink, onEvent: () -> Void = {}) -> Ending {
    var trace = TraceFormatter(numbered: numbers)
    var folded = LifecycleState()
    var events: Int64 = 0
    // Stopped by --until: how the log ends is not this replay's ending, even if it was read.
    var stoppedByLimit = false
    do {
      if state {
        (events, stoppedByLimit) = try DecodedBatches.forEach(stream, until: until) { _, t, body in
          folded.evolve(at: t, body)
          onEvent()
        }
      }
      while !state, let logEvent = try stream.next() {
        if let until, until.excludes(seq: logEvent.seq, t: logEvent.t) {
          stoppedByLimit = true
          break
        }
        let event = try Event(logEvent)
        folded.evolve(event)
        events += 1
        onEvent()
        sink.write(json ? String(decoding: logEvent.body, as: UTF8.self) : trace.line(seq: logEvent.seq, event))
      }
    } catch {
      return Ending(status: 2, unreadable: "\(log): \(error)")
    }
    return ending(stream, folded, events: events, ending: stoppedByLimit ? nil : stream.ending)
  }

  /// What the replay reports once the events are read: `ending` is the log's, nil when `until` stopped it.
  private func ending(_ stream: LogEventStream, _ folded: LifecycleState, events: Int64, ending: LogEnding?) -> Ending {
    let profile = try? Profile(json: stream.header.profile)
    // A run that stopped on a script error is trouble when replayed to its end, as it was when it
    // ran; so is a log cut off before its trailer (the exports call it stopped).
    let recordedError = ending?.scriptError
    let cutOff = ending?.cutOffAfter.flatMap { n in
      until?.isWithin(lastEvent: n) == true ? nil : "\(log): \(LogEnding.noTrailerMessage(afterEvent: n))"
    }
    var result = Ending(status: recordedError == nil && cutOff == nil ? 0 : 2)
    if json {
      var members: [(String, JSONValue)] = [("events", .int(events)), ("t", .int(folded.now)), ("seed", .int(stream.header.seed))]
      switch ending {
      case .complete: members.append(("complete", .bool(true)))
      case let .cutOff(n): members += [("complete", .bool(false)), ("cutOffAfter", .int(n))]
      case nil: if let until { members.append(until.json) }
      }
      members.append(state ? ("state", StateJSON.object(folded, profile: profile))
                           : ("outcome", folded.annotated(outcome: Simulator.outcome(of: folded, error: recordedError, stopped: ending?.stopped))))
      if let cutOff { members.append(("error", .string(cutOff))) }
      result.endMembers = members
    } else {
      result.text = state ? [StateText.describe(folded, profile: profile)]
        : ["", OutcomeText.paragraph(state: folded, seed: stream.header.seed, events: events, rerun: nil)]
    }
    if let recordedError { result.errors.append("\(log): the recorded run stopped on a script error: \(recordedError)") }
    if let cutOff { result.errors.append(cutOff) }
    if let stopped = ending?.stopped { result.errors.append("\(log): the recorded run \(stopped)") }
    return result
  }
}
