import ArgumentParser
import EventStore
import Lifecycle
import ScriptHost

struct Run: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run a scenario against an app, print the trace, write the log.",
    discussion: """
      Exit status: 0 every expectation held, 1 an expectation failed, 2 a script or usage error.

      Examples:
        lifesim run Scripts/scenarios/cold_launch.lua
        lifesim run Scripts/scenarios/home_and_return.lua --app Scripts/apps/overrun.lua -o overrun.lifelog
        lifesim run Scripts/scenarios/cold_launch.lua --ios 12 --seed 7 --json
      """
  )

  @Argument(help: "The scenario script (Lua).")
  var scenario: String

  @Option(help: "The app script; overrides scenario { app = … }.")
  var app: String?

  @Option(name: .customLong("lib"), help: ArgumentHelp(
    "A folder where require looks for modules (repeatable), after the script's own folder.", valueName: "DIR"))
  var lib: [String] = []

  @Option(help: "The iOS profile: a release from 12 to 18, or 26 (default: the scenario's, else 17).")
  var ios: Int?

  @Flag(help: "Run the app without the UIScene life cycle (app delegate only).")
  var noScenes = false

  @Option(help: "The seed for everything random (default: the scenario's, else 1).")
  var seed: Int64?

  @OptionGroup var out: OutputOptions

  @OptionGroup var guardOptions: RunGuardOptions

  @Flag(name: .shortAndLong, help: "Print only the outcome.")
  var quiet = false

  @Flag(help: "Print the events as JSON Lines, then the outcome as a JSON line.")
  var json = false

  func validate() throws {
    if let ios, !Profile.releases.contains(ios) {
      throw ValidationError("--ios must be a released iOS version (\(Profile.releasesText)), not \(ios)")
    }
  }

  func run() throws {
    defer { Terminal.flush() }
    var config = RunConfiguration(
      scenarioPath: scenario, appPath: app, ios: ios, scenes: noScenes ? false : nil, seed: seed,
      outputPath: out.output, overwrite: out.force, source: .files(searchPath: ModuleSearchPath.folders(libs: lib)))
    guardOptions.apply(to: &config)
    var trace = TraceFormatter()
    // Read once: ArgumentParser's property-wrapper getters cost more than an event (measured).
    let json = self.json, quiet = self.quiet
    let result = ScenarioRunner(config) { seq, event in
      if json {
        var encoder = CanonicalJSONWriter(capacity: 512)
        event.canonicalBody(seq: seq, into: &encoder)
        Terminal.write(encoder.text)
      }
      else if !quiet { Terminal.write(trace.line(seq: seq, event)) }
    }.run()
    report(result)
    throw ExitCode(result.exitStatus)
  }

  private func report(_ result: RunResult) {
    if json {
      Terminal.write(JSONValue.object([("kind", .string("end")), ("events", .int(result.events)),
                                       ("t", .int(result.endTime)), ("outcome", result.outcome)]).canonicalText)
    } else {
      let seedValue = result.header?.seed
      let rerun = seedValue.map { "lifesim run \(scenario)\(app.map { " --app \($0)" } ?? "") --seed \($0)" }
      Terminal.write("")
      Terminal.write(OutcomeText.paragraph(state: result.state, seed: seedValue, events: result.events, rerun: rerun))
    }
    Terminal.flush()
    if let error = result.error { Terminal.error(error) }
  }
}
