import ArgumentParser
import EventStore
import Render
import JSON
import LifecycleLog

struct Verify: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check a log's integrity: format, sequence, hash chain, trailer.",
    discussion: helpText("""
      Reads the log in constant memory. Exit status: 0 intact and complete; 1 damaged, or
      cut off (then it says after which event); 2 not a readable log, or a header lifesim would
      not write (a knob outside its range), however intact its chain.

      Examples:
        lifesim verify run.lifelog
        lifesim verify run.lifelog --json
      """)
  )

  @Argument(help: "The log to check.")
  var log: String

  @Flag(help: "Print the verdict as one JSON line (docs/json.md).")
  var json = false

  func run() throws {
    defer { Terminal.flush() }
    if json { JSONLines.begin("verify") }
    let result = RecordedLog.verify(log)
    let status: Int32
    let members: [(String, JSONValue)]
    switch result {
    case let .intact(events):
      status = Status.ok
      members = [("verdict", .string("intact")), ("events", .int(events))]
    case let .cutOff(afterEvent):
      status = Status.failed
      members = [("verdict", .string("cut_off")), ("events", .int(afterEvent))]
    case let .damaged(line, reason, validEvents):
      status = Status.failed
      members = [("verdict", .string("damaged")), ("events", .int(validEvents)), ("line", .int(Int64(line))), ("reason", .string(reason))]
    case let .unreadable(reason):
      Terminal.error(reason)
      status = Status.trouble
      members = [("verdict", .string("unreadable")), ("error", .string(reason))]
    }
    if json {
      JSONLines.end(status: status, [("log", .string(log))] + members + [("message", .string(result.description))])
    } else if status != Status.trouble {
      // A damaged line's reason may quote the log (an unknown kind).
      Terminal.write(TerminalText.visible("\(log): \(result.description)"))
    }
    throw ExitCode(status)
  }
}
