import ArgumentParser
import ScriptHost

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
    subcommands: [Run.self, Test.self, Replay.self, Verify.self, Diff.self, Export.self]
  )

  /// SPEC §2: a usage error is exit status 2 (`lifesim: message`), not ArgumentParser's 64.
  static func main() {
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      if exitCode(for: error) == .validationFailure {
        Terminal.flush()
        Terminal.error(message(for: error))
        Terminal.errorLine("Usage: run 'lifesim --help' (or 'lifesim COMMAND --help') for the options and examples.")
        exit(withError: ExitCode(Status.trouble))
      }
      Terminal.flush()
      exit(withError: error)
    }
  }
}

/// Exit statuses of SPEC §2.
enum Status {
  static let ok: Int32 = 0
  static let failed: Int32 = 1
  static let trouble: Int32 = 2
}
