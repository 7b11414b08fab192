import ArgumentParser
import EventStore
import JSON
import Lifecycle
import LifecycleLog
import ScriptHost
#if canImport(Glibc)
import Glibc
#endif
import Render


/// What `lifesim run` was asked to do, as plain values: built by ArgumentParser's `Run`, or by
/// `QuickRun` for the common short forms without ArgumentParser's start-up work. Both run here.
struct RunRequest: Equatable {
  var scenario: String
  var app: String? = nil
  /// `--lib` folders, in the order given.
  var lib: [String] = []
  var ios: Int? = nil
  /// `--sdk`.
  var sdk: Int? = nil
  var noScenes = false
  var seed: Int64? = nil
  var output: String? = nil
  var force = false
  var wallLimitSeconds = WallClock.defaultLimitSeconds
  var maxEvents = RunConfiguration.defaultMaxEvents
  var quiet = false
  var numbers = false
  var json = false
  /// `--strict`: any diagnostic fails the run.
  var strict = false
  /// `--choose`: the app's `choose(site)` outcomes the run fixes.
  var choices = ForcedChoices()

  /// Runs the scenario, prints the trace and the outcome, and throws the exit status. The last
  /// work of the process: the run's Lua states are left for the exit to free.
  func execute() throws(ExitCode) {
    defer { Terminal.flush() }
    if json { JSONLines.begin("run") }
    if let output {
      // The log itself is written in place (append-only, crash-safe); this only refuses an input as -o.
      do { _ = try OutputTarget.check(output, overwrite: force, inputs: [scenario] + (app.map { [$0] } ?? [])) } catch {
        Terminal.error("\(error)")
        throw ExitCode(Status.trouble)
      }
    }
    var config = RunConfiguration(
      scenarioPath: scenario, appPath: app, ios: ios, scenes: noScenes ? false : nil, seed: seed,
      outputPath: output, overwrite: force, source: .commandLine(libs: lib))
    config.sdk = sdk
    config.wallLimitSeconds = wallLimitSeconds
    config.maxEvents = maxEvents
    config.strict = strict
    config.choices = choices
    var trace = TraceFormatter(numbered: numbers)
    let json = self.json, quiet = self.quiet
    // The header is written once the log is open and the app read: only then has the run started.
    var started = false
    // A long run (say a year of advance with a timer) shows its event count on a terminal.
    var progress = Progress("run", besideTrace: !quiet && !json)
    // Nothing to do an event when it is neither shown nor counted (`-q` into a file): ticking the
    // captured progress was 2 % of the run's thread.
    let onEvent: (Int64, Event) -> Void = !quiet || json || progress.enabled ? { seq, event in
      progress.tick()
      if json {
        var encoder = CanonicalJSONWriter(capacity: 512)
        event.canonicalBody(seq: seq, into: &encoder)
        Terminal.write(encoder.text)
      }
      else if !quiet { Terminal.write(trace.line(seq: seq, event)) }
    } : { _, _ in }
    let result = ScenarioRunner(config, onHeader: { _ in started = true }, onEvent: onEvent).runLeavingCleanupToExit()
    progress.finish()
    if started { report(result) }
    Terminal.flush()
    if let error = result.error { Terminal.error(error) }
    if let stopped = result.stopped { Terminal.error(stopped) }
    throw ExitCode(result.exitStatus)
  }

  /// The outcome of a run that started (a refusal to start has only its message).
  private func report(_ result: RunResult) {
    if json {
      var members: [(String, JSONValue)] = [("events", .int(result.events)), ("t", .int(result.endTime)),
                                            ("seed", result.header.map { .int($0.seed) } ?? .null), ("outcome", result.outcome)]
      if !result.warnings.isEmpty {
        members.append(("warnings", .array(result.warnings.map(\.json))))
      }
      JSONLines.end(status: result.exitStatus, members)
    } else {
      let seedValue = result.header?.seed
      Terminal.write("")
      // Before the outcome, whose last words are the command that reproduces the run.
      if result.usedEmptyApp {
        Terminal.write("note: no app: \(TerminalText.visible(scenario)) names none (scenario { app = \"…\" } or --app), "
                       + "so an empty app ran: one controller, ViewController, and no handlers")
      }
      for warning in result.warnings { Terminal.write(warning.line) }
      Terminal.write(OutcomeText.paragraph(state: result.state, seed: seedValue, events: result.events,
                                           rerun: seedValue.map { reproduceLine(seed: $0, profile: result.header?.profile) },
                                           failedDiagnostic: result.failedDiagnostic))
    }
  }

  /// The command that runs this run again, byte for byte: every option that shaped it (knobs
  /// come only from the scenario script, which it names; `--lib` and `LIFESIM_PATH` decide which
  /// modules `require` finds), shell-quoted. A negative seed is written `--seed=-1`, which the
  /// parser cannot mistake for an option. The SDK is named when `--sdk` gave it, or when the
  /// app's `app { sdk = … }` made it other than its iOS's default.
  private func reproduceLine(seed: Int64, profile recorded: JSONValue?) -> String {
    var plan = RunPlan.CommandLineLayer(ios: ios, sdk: sdk, noScenes: noScenes, choices: choices)
    if sdk == nil, let profile = recorded.flatMap({ try? Profile(json: $0) }), profile.sdk != IOSRelease.defaultSDK(ios: profile.ios) {
      plan.sdk = profile.sdk
    }
    return RerunCommand(scenario: scenario, app: app, plan: plan, strict: strict, lib: lib,
                        maxEvents: maxEvents == RunConfiguration.defaultMaxEvents ? nil : maxEvents, seed: seed,
                        libraryPath: getenv("LIFESIM_PATH").map { String(cString: $0) }).line
  }
}
