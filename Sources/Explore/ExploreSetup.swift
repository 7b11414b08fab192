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
    let ios = options.ios ?? declaration.ios ?? IOSRelease.defaultVersion
    do throws(IOSRelease.Refusal) { _ = try IOSRelease(ios, "ios") } catch { throw ScriptError(error.description) }
    let scenes = options.scenes == false ? false : (declaration.scenes ?? IOSRelease.hasScenes(ios))
    if scenes, !IOSRelease.hasScenes(ios) { throw ScriptError("scenes need iOS \(IOSRelease.firstWithScenes) or later (ios = \(ios))") }
    var profile = Profile(ios: ios, scenes: scenes, sdk: options.sdk)
    seed = options.seed ?? declaration.seed ?? 1
    steps = options.steps ?? declaration.steps ?? ExploreOptions.defaultSteps
    let probe = AppHost(path: appPath, source: appSource, loader: loader, modules: modules, profile: profile,
                        seed: seed, output: OutputBudget(), wallLimitSeconds: Self.wallLimitSeconds)
    if options.sdk == nil, let declared = probe.declaredLayout().sdk, declared != profile.sdk {
      profile = Profile(ios: ios, scenes: scenes, sdk: declared)
    }
    // An iPad (the spec's `device`) with the app's `multipleScenes`: explore draws the window verbs.
    profile.device = declaration.device ?? .iphone
    profile.multipleScenes = probe.declaredLayout().multipleScenes
    // The app's scene manifest decides `scenes`, as for a run (a spec's `scenes` must agree).
    if options.scenes != false, let shape = probe.declaredLayout().sceneManifestShape {
      do { try profile.adopt(shape, declaredScenes: declaration.scenes) } catch {
        throw ScriptError(file: spec?.path ?? options.path, "explore: " + error.description)
      }
    }
    if let problem = profile.deviceProblem { throw ScriptError(file: spec?.path ?? options.path, "explore: " + problem) }
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
