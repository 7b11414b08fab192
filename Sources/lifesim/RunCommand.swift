import ArgumentParser

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

  @OptionGroup var choice: ChoiceOptions

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

  @Flag(help: "Fail the run (exit 1) on any diagnostic, as scenario { strict = true } does.")
  var strict = false

  func run() throws { try request.execute() }

  /// The options as plain values, read once: ArgumentParser's property-wrapper getters cost more
  /// than an event (measured).
  var request: RunRequest {
    RunRequest(scenario: scenario, app: app, lib: modules.lib, ios: profile.ios, sdk: profile.sdk, noScenes: profile.noScenes, seed: seed,
               output: out.output, force: out.force, wallLimitSeconds: guardOptions.wallLimit,
               maxEvents: guardOptions.maxEvents, quiet: quiet, numbers: numbers, json: json, strict: strict,
               choices: choice.choices)
  }
}
