import ArgumentParser
import EventStore

struct Verify: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check a log's integrity: format, sequence, hash chain, trailer.",
    discussion: """
      Reads the log in constant memory. Exit status: 0 intact and complete; 1 damaged, or
      cut off (then it says after which event); 2 not a readable log.

      Example:
        lifesim verify run.lifelog
      """
  )

  @Argument(help: "The log to check.")
  var log: String

  func run() throws {
    defer { Terminal.flush() }
    let result = LogVerification.check(path: log)
    switch result {
    case .intact:
      Terminal.write("\(log): \(result.description)")
      throw ExitCode(Status.ok)
    case .cutOff, .damaged:
      Terminal.write("\(log): \(result.description)")
      throw ExitCode(Status.failed)
    case .unreadable:
      Terminal.error(result.description)
      throw ExitCode(Status.trouble)
    }
  }
}
