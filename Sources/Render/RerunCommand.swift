import Lifecycle

/// The one command line that runs a run again: `lifesim run SCENARIO` and the options that
/// shaped the run, always in the same order, quoted by `ShellCommand`. `run`'s outcome and each
/// suite case know every option, so their line runs the run again byte for byte; an HTML
/// timeline's `rerun` is built from the log's header, which records the profile, forced
/// choices and seed but not `--app`, `--strict`, `--lib` or `--max-events`.
///
/// The order is the scenario, `--app`, `--ios`, `--sdk`, `--no-scenes`, `--strict`, `--choose`,
/// `--lib`, `--max-events` and the seed last (written `--seed=-3` when negative, which the
/// parser cannot mistake for an option).
package struct RerunCommand: Sendable, Equatable {
  package var scenario: String
  /// `--app`, when the run named its app rather than finding it beside the scenario.
  package var app: String?
  /// What the command line decided of the profile: only what is set here is written.
  package var plan: RunPlan.CommandLineLayer
  package var strict: Bool
  /// `--lib` folders, in the order given.
  package var lib: [String]
  /// `--max-events`: nil when the run had the default.
  package var maxEvents: Int64?
  package var seed: Int64
  /// `LIFESIM_PATH`, written before the command when the run had it.
  package var libraryPath: String?

  package init(scenario: String, app: String? = nil, plan: RunPlan.CommandLineLayer = .init(), strict: Bool = false,
               lib: [String] = [], maxEvents: Int64? = nil, seed: Int64,
               libraryPath: String? = nil) {
    self.scenario = scenario; self.app = app; self.plan = plan; self.strict = strict
    self.lib = lib; self.maxEvents = maxEvents; self.seed = seed; self.libraryPath = libraryPath
  }

  /// The argument vector, `lifesim` first.
  package var words: [String] {
    var words = ["lifesim", "run", scenario]
    if let app { words += ["--app", app] }
    if let ios = plan.ios { words += ["--ios", String(ios)] }
    if let sdk = plan.sdk { words += ["--sdk", String(sdk)] }
    if plan.noScenes { words.append("--no-scenes") }
    if strict { words.append("--strict") }
    words += plan.choices.commandLineWords
    for folder in lib { words += ["--lib", folder] }
    if let maxEvents { words += ["--max-events", String(maxEvents)] }
    return words + ShellCommand.seedWords(seed)
  }

  /// The line a POSIX shell runs as `words`, with `LIFESIM_PATH=…` before it when set.
  package var line: String {
    (libraryPath.map { "LIFESIM_PATH=" + ShellCommand.quote($0) + " " } ?? "") + ShellCommand.line(words)
  }
}
