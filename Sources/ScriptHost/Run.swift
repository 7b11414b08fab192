import EventStore
import JSON
import Lifecycle

/// The version written into every log header.
public let lifesimVersion = "0.4.0"

/// What `lifesim run` (and `replay --verify`, `replay --app`) asks for.
public struct RunConfiguration: Sendable {
  public var scenarioPath: String
  /// Overrides `scenario { app = … }`.
  public var appPath: String?
  public var ios: Int?
  /// `--no-scenes` sets false.
  public var scenes: Bool?
  public var seed: Int64?
  /// Where the log goes; nil: no file (the trace still streams).
  public var outputPath: String?
  public var overwrite = false
  public var source: ScriptSource
  /// A profile to use as is (replay: the one in the header), ignoring ios/scenes/knobs.
  public var recordedProfile: Profile?
  /// `--sdk`: the SDK the app is built with, over the app's `app { sdk = … }` and a recorded profile's.
  public var sdk: Int?
  /// With a recorded profile: the app's `app { sdk = … }` decides over the recorded SDK
  /// (`replay --app`, where the app is a new build); else the recorded SDK stands (`--verify`).
  public var appSDKOverridesRecorded = false
  /// The wall-clock guard's limit for one host call, seconds (0: none); see `WallClock`.
  public var wallLimitSeconds = WallClock.defaultLimitSeconds
  /// The most events a run may record; the run stops cleanly there (exit 2, the log intact).
  public var maxEvents = RunConfiguration.defaultMaxEvents
  /// `--strict`: any diagnostic (a note with a code) fails the run.
  public var strict = false
  /// `--choose SITE=true|false`: the app's `choose(site)` outcomes the run fixes.
  public var choices = ForcedChoices()
  /// 50 million events: about 10 GB of log, a minute of run.
  public static let defaultMaxEvents: Int64 = 50_000_000

  public init(scenarioPath: String, appPath: String? = nil, ios: Int? = nil, scenes: Bool? = nil, seed: Int64? = nil,
              outputPath: String? = nil, overwrite: Bool = false, source: ScriptSource = .files(searchPath: []),
              recordedProfile: Profile? = nil) {
    self.scenarioPath = scenarioPath; self.appPath = appPath; self.ios = ios; self.scenes = scenes
    self.seed = seed; self.outputPath = outputPath; self.overwrite = overwrite; self.source = source
    self.recordedProfile = recordedProfile
  }
}

/// How a run ended.
public struct RunResult: Sendable {
  /// 0 every expectation held; 1 one failed; 2 a script or usage error.
  public var exitStatus: Int32
  /// The script or log error that stopped the run (`file:line: message`).
  public var error: String?
  /// Why a failed run ended early: a verb the state left by a fault no expectation named
  /// refused (`stopped at line N: home() needs a running app; …`). Never set with `error`.
  public var stopped: String?
  public var header: LogHeader?
  public var state: LifecycleState
  /// The trailer's outcome with each termination's MetricKit category and foreground (`LifecycleState.annotated`).
  public var outcome: JSONValue
  public var events: Int64
  /// Virtual time at the end, µs.
  public var endTime: Int64
  /// What `scenario { … }` declared about its profile (empty if the run stopped before it).
  public var declaration = ScenarioDeclaration()
  /// What the author should know that does not change the verdict, in the order found.
  public var warnings: [RunWarning] = []
  /// Under `--strict` (or `scenario { strict = true }`), the code of the first diagnostic, which
  /// failed the run (`Failed: diagnostic <code>`); nil otherwise.
  public var failedDiagnostic: String?
}

/// Runs a scenario against an app: two sandboxed Lua states, the Lifecycle
/// model, and the log. Every event goes to `onEvent` as it happens.
public final class ScenarioRunner {
  let config: RunConfiguration
  let onEvent: (Int64, Event) -> Void
  let onHeader: (LogHeader) -> Void

  public init(_ config: RunConfiguration, onHeader: @escaping (LogHeader) -> Void = { _ in },
              onEvent: @escaping (Int64, Event) -> Void) {
    self.config = config
    self.onEvent = onEvent
    self.onHeader = onHeader
  }

  public func run() -> RunResult {
    let host = ScenarioHost(config: config, onHeader: onHeader, onEvent: onEvent)
    return host.run()
  }

  /// Runs as `run()` does, for a process that exits when the run ends: the two Lua states, the
  /// simulator and the app are left for the exit to free (closing the states cost 350,000
  /// instructions, 8 % of a one-verb run). The log is complete when this returns, as with `run()`:
  /// nothing the host frees writes anything, and scripts cannot set finalizers (`__gc`).
  public func runLeavingCleanupToExit() -> RunResult {
    let host = ScenarioHost(config: config, onHeader: onHeader, onEvent: onEvent)
    _ = Unmanaged.passRetained(host)
    return host.run()
  }
}
