import ArgumentParser
import EventStore
import Lifecycle
import Render
import LifecycleLog
import ScriptHost

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct Lifesim: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lifesim",
    abstract: "A deterministic, event-sourced simulator of the iOS app lifecycle.",
    discussion: helpText("""
      A scenario script (Lua) plays the user and the system; an app script plays your
      delegate and view-controller code. lifesim runs both against a model of UIKit's
      rules and writes every event to a hash-chained log you can replay and verify.

      Example:
        lifesim run Scripts/scenarios/home_and_return.lua -o home.lifelog
        lifesim replay home.lifelog --state
        lifesim verify home.lifelog
      """),
    version: lifesimVersion,
    subcommands: [Run.self, Test.self, Replay.self, Verify.self, Diff.self, Export.self, Init.self, ProfileCommand.self,
                  Explore.self, Coverage.self, Scan.self]
  )

  /// A usage error is exit status 2 (`lifesim: message`), not ArgumentParser's 64.
  static func main() {
    Terminal.surviveClosedPipes()
    if let bad = firstArgumentNotUTF8() {
      // Swift would turn the bytes into U+FFFD: the file named would not be the file opened,
      // and two such names could become one path (and --force overwrite the wrong log).
      Terminal.error("argument \(bad) is not valid UTF-8; lifesim takes UTF-8 file names only (rename the file)")
      exit(withError: ExitCode(Status.trouble))
    }
    // The common `run FILE [-q] [-o FILE]` without ArgumentParser's start-up work (see QuickRun).
    if let request = QuickRun.request(CommandLine.arguments.dropFirst()) {
      do throws(ExitCode) { try request.execute() } catch { end(error) }
    }
    // The common `replay LOG [--state] [--json]` likewise (see LogReplay.quick).
    if let replay = LogReplay.quick(CommandLine.arguments.dropFirst()) {
      do throws(ExitCode) { try replay.execute() } catch { end(error) }
    }
    if let typo = misspelledCommand() {
      Terminal.error(typo)
      Terminal.errorLine("Usage: run 'lifesim --help' (or 'lifesim COMMAND --help') for the options and examples.")
      exit(withError: ExitCode(Status.trouble))
    }
    do {
      var command = try parseAsRoot()
      try command.run()
      exitIfStdoutFailed()
    } catch {
      // A command's own exit status: it has printed its messages, and ArgumentParser would only
      // build a usage text to print nothing (exitCode(for:) and exit(withError:) both do).
      if let status = error as? ExitCode, status != .validationFailure { end(status) }
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

  /// The end of a command that threw its exit status, as `exit(withError:)` ends it.
  private static func end(_ status: ExitCode) -> Never {
    JSONLines.endIfNeeded(status: status.rawValue)
    Terminal.flush()
    exitIfStdoutFailed()
    exitProcess(status.rawValue)
  }

  /// Whatever the command decided, output that did not reach standard output is trouble.
  private static func exitIfStdoutFailed() {
    Terminal.flush()
    guard let message = Terminal.stdoutFailureMessage else { return }
    Terminal.error(message)
    exit(withError: ExitCode(Status.trouble))
  }
}

/// The C library's `exit` (inside `Lifesim`, `exit` names ArgumentParser's `exit(withError:)`).
private func exitProcess(_ status: Int32) -> Never { exit(status) }

/// `lifesim rn s.lua`: a first argument that is no command but is near one (ArgumentParser would
/// only say "2 unexpected arguments").
private func misspelledCommand() -> String? {
  let args = CommandLine.arguments.dropFirst()
  guard let first = args.first, !first.hasPrefix("-") else { return nil }
  let names = Lifesim.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
  guard !names.contains(first), let near = nearest(first, in: names) else { return nil }
  return "unknown command '\(first)' (did you mean '\(near)'?)"
}

/// The position (1 = the first after the command name) of an argument that is not valid UTF-8.
private func firstArgumentNotUTF8() -> Int? {
  for i in 1..<Int(CommandLine.argc) {
    guard let raw = CommandLine.unsafeArgv[i] else { continue }
    if String(validatingCString: raw) == nil { return i }
  }
  return nil
}
