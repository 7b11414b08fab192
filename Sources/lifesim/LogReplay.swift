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
    // The state is folded from events decoded where the log is checked (`DecodedBatches`).
    let following: (() -> any FoldPartFollower)? = state ? { DecodedBatches.follower() } : nil
    do { stream = try RecordedLog.stream(log, following: following) } catch {
      Terminal.error(error.description)
      throw ExitCode(Status.trouble)
    }
    var replay = RecordedTrace(log: log)
    (replay.until, replay.numbers, replay.state, replay.json) = (until, numbers, state, json)
    var progress = Progress("replay")
    defer { progress.finish() }
    let tick: () -> Void = progress.enabled ? { progress.tick() } : {}  // as `diff`: no call an event when nothing shows
    let ending = replay.write(stream, to: StandardOutputSink(), onEvent: tick)
    if let unreadable = ending.unreadable {
      Terminal.error(unreadable)
    } else if json {
      JSONLines.end(status: ending.status, ending.endMembers)
    } else {
      ending.text.forEach(Terminal.write)
    }
    ending.errors.forEach(Terminal.error)
    throw ExitCode(ending.status)
  }
}
