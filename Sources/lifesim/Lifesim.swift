import ArgumentParser
import ScriptHost

#if canImport(Glibc)
import Glibc
#endif

@main
struct Lifesim: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lifesim",
    abstract: "A deterministic, event-sourced simulator of the iOS app lifecycle.",
    discussion: """
      A scenario script (Lua) plays the user and the system; an app script plays your
      delegate and view-controller code. lifesim runs both against a model of UIKit's
      rules and writes every event to a hash-chained log you can replay and verify.

      Example:
        lifesim run Scripts/scenarios/home_and_return.lua -o home.lifelog
        lifesim replay home.lifelog --state
        lifesim verify home.lifelog
      """,
    version: lifesimVersion,
    subcommands: [Run.self, Replay.self, Verify.self, Diff.self, Export.self, Init.self]
  )

  /// SPEC §2: a usage error is exit status 2 (`lifesim: message`), not ArgumentParser's 64.
  static func main() {
    // A closed pipe is a write error the command reports (exit 2), not a silent death by SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    do {
      var command = try parseAsRoot()
      try command.run()
      exitIfStdoutFailed()
    } catch {
      if exitCode(for: error) == .validationFailure {
        Terminal.flush()
        Terminal.error(message(for: error))
        Terminal.errorLine("Usage: run 'lifesim --help' (or 'lifesim COMMAND --help') for the options and examples.")
        exit(withError: ExitCode(Status.trouble))
      }
      let status = exitCode(for: error).rawValue
      JSONLines.endIfNeeded(status: status)
      Terminal.flush()
      exitIfStdoutFailed()
      exit(withError: error)
    }
  }

  /// Whatever the command decided, output that did not reach standard output is trouble.
  private static func exitIfStdoutFailed() {
    Terminal.flush()
    guard let message = Terminal.stdoutFailureMessage else { return }
    Terminal.error(message)
    exit(withError: ExitCode(Status.trouble))
  }
}

/// Exit statuses of SPEC §2.
enum Status {
  static let ok: Int32 = 0
  static let failed: Int32 = 1
  static let trouble: Int32 = 2
}
