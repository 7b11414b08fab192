import EventStore
import Lifecycle
import ScriptHost

/// What `lifesim explore` asks for. The budget is `runs` or `timeSeconds` (runs wins).
public struct ExploreOptions: Sendable {
  /// An app script, or an explore spec (`explore { app = … }` and `invariant(…)`).
  public var path: String
  public var ios: Int?
  /// `--sdk`: over the app's `app { sdk = … }`.
  public var sdk: Int?
  /// `--no-scenes` sets false.
  public var scenes: Bool?
  public var runs: Int?
  public var timeSeconds: Double?
  /// The longest sequence of verbs (default: the spec's, else 30).
  public var steps: Int?
  public var seed: Int64?
  /// Worker threads.
  public var jobs: Int
  public var shard: Shard
  public var searchPath: [String]
  /// Whether workers start the app's processes from checkpoints of their Lua state
  /// (`AppStatePool`); the results are the same either way (a test compares them).
  package var reusesProcessStates = true

  public init(path: String, ios: Int? = nil, sdk: Int? = nil, scenes: Bool? = nil, runs: Int? = nil, timeSeconds: Double? = nil,
              steps: Int? = nil, seed: Int64? = nil, jobs: Int = 1, shard: Shard = Shard(index: 1, count: 1),
              searchPath: [String] = []) {
    self.path = path; self.ios = ios; self.sdk = sdk; self.scenes = scenes; self.runs = runs; self.timeSeconds = timeSeconds
    self.steps = steps; self.seed = seed; self.jobs = jobs; self.shard = shard; self.searchPath = searchPath
  }

  public static let defaultSteps = 30
  public static let defaultRuns = 1_000
}

extension Shard {
  /// Whether explore can run this shard: its runs are dealt to `ExploreSetup.lanes` lanes, so
  /// N must divide them (`--shard 1/3` cannot).
  public var splitsExploreLanes: Bool { ExploreSetup.lanes % count == 0 }
}

/// Everything a worker needs, read once: the app, its profile, its declared controllers and
/// tabs, and the spec (if any).
struct ExploreSetup: @unchecked Sendable {
  let appPath: String
  let appSource: String
  let modules: [EmbeddedScript]
  let loader: ScriptLoader
  let profile: Profile
  let seed: Int64
  let steps: Int
  let spec: (path: String, source: String)?
  let declaration: ExploreDeclaration
  let invariants: [InvariantSource]
  /// Declared view-controller classes, in name order.
  let controllers: [String]
  /// The window's tabs (0: no tab bar).
  let tabs: Int
  /// The user actions of the app's controllers, with the spec's argument lists.
  let actions: ActionCatalog
  /// `ExploreOptions.reusesProcessStates`.
  let reusesProcessStates: Bool

  /// Steering keeps one corpus per lane (run index mod `lanes`), so a lane's runs depend only
  /// on the lane's own earlier runs: any number of threads, and any shard count dividing
  /// `lanes`, gives the same runs.
  static let lanes = 16
  static let wallLimitSeconds = 60

  /// The plan's profile, or its refusal as explore words it: a release or scenes refused as
  /// they are, the rest placed at the spec (or the app explored alone).
  private static func profile(of plan: RunPlan, specPath: String) throws(ScriptError) -> Profile {
    do throws(RunPlan.Refusal) { return try plan.profile() } catch {
      switch error.kind {
      case .ios, .scenes: throw ScriptError(error.description)
      case .device, .knob, .manifest: throw ScriptError(file: specPath, "explore: " + error.description)
      }
    }
  }

  /// Reads the app or the spec; the error is the message to print (exit 2).
  init(_ options: ExploreOptions) throws(ScriptError) {
    loader = ScriptLoader(source: .files(searchPath: options.searchPath))
    reusesProcessStates = options.reusesProcessStates
    let source = try loader.read(options.path, role: "app or explore spec")
    var declaration = ExploreDeclaration()
    var invariants: [InvariantSource] = []
    if Self.isSpec(source) {
      let host = try InvariantHost(path: options.path, source: source, seed: options.seed ?? 1)
      guard let app = host.declaration.app else {
        throw ScriptError(file: options.path, "an explore spec must call explore { app = \"app.lua\" }")
      }
      declaration = host.declaration
      invariants = host.invariants
      spec = (options.path, source)
      appPath = ScriptLoader.join(ScriptLoader.directory(of: options.path), app)
      appSource = try loader.read(appPath, role: "app")
    } else {
      spec = nil
      appPath = options.path
      appSource = source
    }
    self.declaration = declaration
    self.invariants = invariants
    var modules: [EmbeddedScript] = []
    try loader.modules(requiredBy: appSource, path: appPath, side: .app, into: &modules)
    self.modules = modules
    var plan = RunPlan(scenario: .init(ios: declaration.ios, scenes: declaration.scenes, device: declaration.device),
                       commandLine: .init(ios: options.ios, sdk: options.sdk, noScenes: options.scenes == false))
    var profile = try Self.profile(of: plan, specPath: spec?.path ?? options.path)
    seed = options.seed ?? declaration.seed ?? 1
    steps = options.steps ?? declaration.steps ?? ExploreOptions.defaultSteps
    let probe = AppHost(path: appPath, source: appSource, loader: loader, modules: modules, profile: profile,
                        seed: seed, output: OutputBudget(), wallLimitSeconds: Self.wallLimitSeconds)
    // The app's SDK, `multipleScenes` (an iPad draws the window verbs) and scene manifest, as for a run.
    plan.app = RunPlan.AppLayer(probe.declaredLayout())
    profile = try Self.profile(of: plan, specPath: spec?.path ?? options.path)
    probe.profile = profile
    self.profile = profile
    // Launch once to read what the app declares: its controllers and its tabs.
    let sim = Simulator(profile: profile, driver: probe) { _ in }
    try? sim.perform(.launch(url: nil))
    if let fatal = probe.fatal { throw fatal }
    controllers = probe.declaredControllers()
    tabs = sim.state.frontWindow.map { $0.container == .tabs ? $0.tabs.count : 0 } ?? 0
    actions = try Self.actionCatalog(probe, declaration: declaration, specPath: spec?.path)
    probe.endProcess()
  }

  /// A spec calls `explore { … }` at the start of a line; an app never does.
  static func isSpec(_ source: String) -> Bool {
    source.split(separator: "\n").contains { line in
      let t = line.drop { $0 == " " || $0 == "\t" }
      return t.hasPrefix("explore {") || t.hasPrefix("explore{") || t.hasPrefix("explore(")
    }
  }

  /// Durations `advance` draws from: just below and above the model's deadlines, µs.
  static let deadlineDurationsUs: [Int64] = [
    4_900_000, 5_100_000, 9_900_000, 10_100_000, 19_900_000, 20_100_000,
    24_900_000, 25_100_000, 29_900_000, 30_100_000, 179_900_000, 180_100_000,
  ]
  /// The URL `open_url` and `launch { url = … }` use.
  static let exploreURL = "lifesim://explore"
}
