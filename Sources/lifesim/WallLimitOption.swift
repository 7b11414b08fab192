import ArgumentParser
import ScriptHost

/// `--wall-limit SECONDS`, for every command that runs scripts.
struct WallLimitOption: ParsableArguments {
  @Option(help: ArgumentHelp(
    "Stop the run (exit 2) if one call into a script runs this many seconds of real time; 0: never. "
      + "A guard against hangs, not model behaviour: it never fires in a run that ends by itself.",
    valueName: "SECONDS"))
  var wallLimit = WallClock.defaultLimitSeconds

  func validate() throws {
    guard wallLimit >= 0, wallLimit <= 86_400 else { throw ValidationError("--wall-limit must be from 0 to 86400 seconds") }
  }
}
