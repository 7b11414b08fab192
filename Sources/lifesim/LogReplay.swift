import ArgumentParser
import EventStore
import JSON
import Lifecycle
import Render
import LifecycleLog

/// `replay LOG` without `--verify` or `--app`: the recorded trace, or with `--state` the state
/// folded from the events, from the log alone (no script runs).
struct LogReplay: Equatable {
  let log: String
  let until: ReplayLimit?
  let numbers: Bool
  let state: Bool
  let json: Bool

  /// The common `replay LOG [--state] [--json]`, read without ArgumentParser (as `QuickRun`
  /// reads `run`): its start-up costs more than folding a short log. Anything else (another
  /// option, a repeat, a second file, a value that looks like an option, `help`) is left to
  /// ArgumentParser, so that its behaviour and messages stay the only ones. `arguments` come
  /// without the program name.
  static func quick(_ arguments: ArraySlice<String>) -> LogReplay? {
    guard arguments.first == "replay" else { return nil }
    var log: String?
    var state = false, json = false
    for word in arguments.dropFirst() {
      switch word {
      case "--state":
        guard !state else { return nil }
        state = true
      case "--json":
        guard !json else { return nil }
        json = true
      default:
        guard log == nil, !word.isEmpty, !word.hasPrefix("-"), word != "help" else { return nil }
        log = word
      }
    }
    guard let log else { return nil }
    return LogReplay(log: log, until: nil, numbers: false, state: state, json: json)
  }

  /// Prints the trace or the state; always throws the exit status.
  func execute() throws(ExitCode) -> Never {
    defer { Terminal.flush() }
    if json { JSONLines.begin("replay") }
    let stream: LogEventStream
    do { stream = try LogEventStream(path: log) } catch {
      Terminal.error(error.description)
      throw ExitCode(Status.trouble)
    }
    throw ExitCode(printTrace(stream))
  }

  /// The recorded trace (and state) from the log alone; the exit status.
  private func printTrace(_ reader: LogEventStream) -> Int32 {
    var trace = TraceFormatter(numbered: numbers)
    var folded = LifecycleState()
    var events: Int64 = 0
    // Stopped by --until: how the log ends is not this replay's ending, even if it was read.
    var stoppedByLimit = false
    var progress = Progress("replay")
    defer { progress.finish() }
    do {
      if state {
        (events, stoppedByLimit) = try DecodedBatches.forEach(reader, until: until) { _, event in
          folded.evolve(event)
          progress.tick()
        }
      }
      while !state, let logEvent = try reader.next() {
        if let until, until.excludes(seq: logEvent.seq, t: logEvent.t) {
          stoppedByLimit = true
          break
        }
        let event = try Event(logEvent)
        folded.evolve(event)
        events += 1
        progress.tick()
        if json { JSONLines.write(event: Array(logEvent.body)) } else { Terminal.write(trace.line(seq: logEvent.seq, event)) }
      }
    } catch {
      Terminal.flush()
      Terminal.error("\(log): \(error)")
      return Status.trouble
    }
    let profile = try? Profile(json: reader.header.profile)
    let ending = stoppedByLimit ? nil : reader.ending
    // A run that stopped on a script error is trouble when replayed to its end, as it was when it
    // ran; so is a log cut off before its trailer (the exports call it stopped).
    let recordedError = ending?.scriptError
    let cutOff = ending?.cutOffAfter.flatMap { n in
      until?.isWithin(lastEvent: n) == true ? nil : "\(log): \(LogEnding.noTrailerMessage(afterEvent: n))"
    }
    let status = recordedError == nil && cutOff == nil ? Status.ok : Status.trouble
    if json {
      var members: [(String, JSONValue)] = [("events", .int(events)), ("t", .int(folded.now)), ("seed", .int(reader.header.seed))]
      switch ending {
      case .complete: members.append(("complete", .bool(true)))
      case let .cutOff(n): members += [("complete", .bool(false)), ("cutOffAfter", .int(n))]
      case nil: if let until { members.append(until.json) }
      }
      members.append(state ? ("state", StateJSON.object(folded, profile: profile))
                           : ("outcome", folded.annotated(outcome: Simulator.outcome(of: folded, error: recordedError, stopped: ending?.stopped))))
      if let cutOff { members.append(("error", .string(cutOff))) }
      JSONLines.end(status: status, members)
    } else {
      if state {
        Terminal.write(StateText.describe(folded, profile: profile))
      } else {
        Terminal.write("")
        Terminal.write(OutcomeText.paragraph(state: folded, seed: reader.header.seed, events: events, rerun: nil))
      }
    }
    if let recordedError { Terminal.error("\(log): the recorded run stopped on a script error: \(recordedError)") }
    if let cutOff { Terminal.error(cutOff) }
    if let stopped = ending?.stopped { Terminal.error("\(log): the recorded run \(stopped)") }
    return status
  }
}
