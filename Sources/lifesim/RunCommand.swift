import ArgumentParser
import EventStore
import Lifecycle
import ScriptHost

#if canImport(Glibc)
import Glibc
#endif

struct Run: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run a scenario against an app, print the trace, write the log.",
    discussion: helpText("""
      Exit status: 0 every expectation held, 1 an expectation failed, 2 a script or usage error.

      Examples:
        lifesim run Scripts/scenarios/cold_launch.lua
        lifesim run Scripts/scenarios/home_and_return.lua --app Scripts/apps/overrun.lua -o overrun.lifelog
        lifesim run Scripts/scenarios/cold_launch.lua --ios 12 --seed 7 --json
      """)
  )

  @Argument(help: "The scenario script (Lua).")
  var scenario: String

  @Option(help: "The app script; overrides scenario { app = … }.")
  var app: String?

  @OptionGroup var modules: ModuleOptions

  @OptionGroup var profile: ProfileOptions

  @Option(help: "The seed for everything random (default: the scenario's, else 1).")
  var seed: Int64?

  @OptionGroup var out: OutputOptions

  @OptionGroup var guardOptions: RunGuardOptions

  @Flag(name: .shortAndLong, help: "Print only the outcome.")
  var quiet = false

  @Flag(help: "Show each event's number in the trace (what replay --until takes).")
  var numbers = false

  @Flag(help: "Print the events as JSON Lines, then the outcome as a final line (docs/json.md).")
  var json = false

  func run() throws {
    defer { Terminal.flush() }
    if json { JSONLines.begin("run") }
    if let output = out.output {
      // The log itself is written in place (append-only, crash-safe); this only refuses an input as -o.
      do { _ = try OutputTarget.check(output, overwrite: out.force, inputs: [scenario] + (app.map { [$0] } ?? [])) } catch {
        Terminal.error("\(error)")
        throw ExitCode(Status.trouble)
      }
    }
    var config = RunConfiguration(
      scenarioPath: scenario, appPath: app, ios: profile.ios, scenes: profile.scenes, seed: seed,
      outputPath: out.output, overwrite: out.force, source: .files(searchPath: modules.searchPath))
    guardOptions.apply(to: &config)
    var trace = TraceFormatter(numbered: numbers)
    // Read once: ArgumentParser's property-wrapper getters cost more than an event (measured).
    let json = self.json, quiet = self.quiet
    // The header is written once the log is open and the app read: only then has the run started.
    var started = false
    // A long run (say a year of advance with a timer) shows its event count on a terminal.
    var progress = Progress("run", besideTrace: !quiet && !json)
    let result = ScenarioRunner(config, onHeader: { _ in started = true }) { seq, event in
      progress.tick()
      if json {
        var encoder = CanonicalJSONWriter(capacity: 512)
        event.canonicalBody(seq: seq, into: &encoder)
        Terminal.write(encoder.text)
      }
      else if !quiet { Terminal.write(trace.line(seq: seq, event)) }
    }.run()
    progress.finish()
    if started { report(result) }
    Terminal.flush()
    if let error = result.error { Terminal.error(error) }
    throw ExitCode(result.exitStatus)
  }

  /// The outcome of a run that started (a refusal to start has only its message).
  private func report(_ result: RunResult) {
    if json {
      JSONLines.end(status: result.exitStatus, [("events", .int(result.events)), ("t", .int(result.endTime)),
                                                ("seed", result.header.map { .int($0.seed) } ?? .null), ("outcome", result.outcome)])
    } else {
      let seedValue = result.header?.seed
      Terminal.write("")
      Terminal.write(OutcomeText.paragraph(state: result.state, seed: seedValue, events: result.events,
                                           rerun: seedValue.map(reproduceLine)))
    }
  }

  /// The command that runs this run again, byte for byte: every option that shaped it (knobs
  /// come only from the scenario script, which it names; `--lib` and `LIFESIM_PATH` decide which
  /// modules `require` finds), shell-quoted. A negative seed is written `--seed=-1`, which the
  /// parser cannot mistake for an option.
  private func reproduceLine(seed: Int64) -> String {
    var words = ["lifesim", "run", scenario]
    if let app { words += ["--app", app] }
    if let ios = profile.ios { words += ["--ios", String(ios)] }
    if profile.noScenes { words.append("--no-scenes") }
    for folder in modules.lib { words += ["--lib", folder] }
    if guardOptions.maxEvents != RunConfiguration.defaultMaxEvents { words += ["--max-events", String(guardOptions.maxEvents)] }
    words += seed < 0 ? ["--seed=\(seed)"] : ["--seed", String(seed)]
    let library = getenv("LIFESIM_PATH").map { "LIFESIM_PATH=" + ShellCommand.quote(String(cString: $0)) + " " } ?? ""
    return library + ShellCommand.line(words)
  }
}
