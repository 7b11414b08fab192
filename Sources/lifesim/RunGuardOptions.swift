import ArgumentParser
import ScriptHost

/// `--wall-limit SECONDS` and `--max-events N`, for every command that runs scripts.
struct RunGuardOptions: ParsableArguments {
  @Option(help: ArgumentHelp(
    "Stop the run (exit 2) if one call into a script runs this many seconds of real time; 0: never. "
      + "A guard against hangs, not model behaviour: it never fires in a run that ends by itself.",
    valueName: "SECONDS"))
  var wallLimit = WallClock.defaultLimitSeconds

  @Option(help: ArgumentHelp(
    "Stop the run cleanly (exit 2, the log intact) when it has recorded this many events.", valueName: "N"))
  var maxEvents = RunConfiguration.defaultMaxEvents

  func validate() throws {
    guard wallLimit >= 0, wallLimit <= 86_400 else { throw ValidationError("--wall-limit must be from 0 to 86400 seconds") }
    guard maxEvents >= 1 else { throw ValidationError("--max-events must be at least 1") }
  }

  /// Applies both guards to a run's configuration.
  func apply(to config: inout RunConfiguration) {
    config.wallLimitSeconds = wallLimit
    config.maxEvents = maxEvents
  }
}
