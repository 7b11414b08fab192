import EventStore
import Lifecycle
import LuaRuntime

/// The scenario script: its own sandboxed Lua state (`LuaVM`) whose verbs drive the
/// simulator. The run (header, log, simulator) starts at the first verb, so
/// `scenario { … }` can set the profile, the seed and the app first.
final class ScenarioHost {
  let config: RunConfiguration
  let loader: ScriptLoader
  let onEvent: (Int64, Event) -> Void
  let onHeader: (LogHeader) -> Void

  private var vm: LuaVM!
  private var scenarioSource = ""
  /// The modules the scenario's Lua state loads (the app's are its own: `ModuleSide`).
  private var scenarioModules: [EmbeddedScript] = []
  /// `scenario { … }`, and the line that declared it.
  private var declaration = ScenarioDeclaration()
  private var declarationAt: String?
  /// Verbs the scenario called: a scenario that calls none simulates nothing and is refused.
  private var verbsCalled = 0
  /// The names of the scenario API, for "did you mean" on a misspelled verb.
  private var apiNames: [String] = []
  /// What the run may still write with `log` and `print`, app and scenario together.
  private let output = OutputBudget()

  private var simulator: Simulator?
  private var app: AppHost?
  private var header: LogHeader?
  /// Numbers, logs and forwards every event (created with the log, at the first verb).
  private var recorder: EventRecorder?
  /// The first error that stops the run.
  private var fatal: String?
  /// Why the run ended early after a fault no expectation named (`FaultStop`): a failure, not an error.
  private var stoppedByFault: String?
  /// When the latest termination happened, µs.
  private var latestTerminationUs: Int64 = 0
  /// The verbs the expectation window covers, for a failed call expectation to name.
  private var window = ExpectationWindow()
  /// What the run's author should know that does not change its verdict (`RunWarning`).
  private var warnings: [RunWarning] = []
  /// The codes a passing `expect_diagnostic` named: `--strict` accepts them.
  private var expectedDiagnostics: Set<String> = []

  /// Instructions the scenario may run between two verbs.
  static let scenarioInstructionLimit = 500_000_000
  static let scenarioMemoryBytes = 256 << 20

  init(config: RunConfiguration, onHeader: @escaping (LogHeader) -> Void, onEvent: @escaping (Int64, Event) -> Void) {
    self.config = config
    self.loader = ScriptLoader(source: config.source)
    self.onEvent = onEvent
    self.onHeader = onHeader
  }

  func run() -> RunResult {
    do throws(ScriptError) {
      scenarioSource = try loader.read(config.scenarioPath, role: "scenario")
      if scenarioSource.hasPrefix("{\"kind\":\"header\"") {
        throw ScriptError(file: config.scenarioPath, "this is a lifesim log, not a scenario; did you mean `lifesim replay \(config.scenarioPath)`?")
      }
      try loader.modules(requiredBy: scenarioSource, path: config.scenarioPath, side: .scenario, into: &scenarioModules)
    } catch {
      return finish(error: error.message)
    }
    vm = LuaVM(memoryLimitBytes: Self.scenarioMemoryBytes, instructionLimit: Self.scenarioInstructionLimit)
    vm.wallLimitSeconds = config.wallLimitSeconds
    vm.register()
    Sandbox.install(on: vm, hooks: Sandbox.Hooks(
      seed: config.seed ?? 1,
      virtualSeconds: { [weak self] in Double(self?.simulator?.clock ?? 0) / 1e6 },
      print: { [weak self] text in
        guard let self else { return }
        try self.start()
        if let problem = self.output.charge(text.utf8.count, by: "print", inCallback: false) {
          throw self.scriptError(self.vm, problem)
        }
        self.simulator?.note("print", text)
      },
      require: { [weak self] vm in
        guard let self else { return 0 }
        return try AppHost.require(vm, modules: self.scenarioModules, from: self.config.scenarioPath)
      }))
    installAPI()
    if let error = Sandbox.loadChunk(vm, source: scenarioSource, name: config.scenarioPath) {
      return finish(error: error)
    }
    switch vm.protectedCall(nargs: 0, nresults: 0, freshBudget: true) {
    case .ok: break
    case let .error(message, _): fatal = fatal ?? ErrorHints.undefinedCall(message, names: apiNames)
    case .instructionLimit:
      let at = vm.lastErrorLine.map { "\(config.scenarioPath):\($0)" } ?? config.scenarioPath
      fatal = fatal ?? "\(at): the scenario ran \(Self.scenarioInstructionLimit) instructions without calling a verb (an endless loop?)"
    case .memoryLimit: fatal = fatal ?? "\(config.scenarioPath): the scenario used more than \(Self.scenarioMemoryBytes >> 20) MiB"
    case let .wallClockLimit(at):
      fatal = fatal ?? WallClock.message(at: at, in: "the scenario", seconds: config.wallLimitSeconds)
    case .aborted: break
    }
    if fatal == nil, verbsCalled == 0 {
      fatal = scenarioSource.allSatisfy(\.isWhitespace)
        ? "\(config.scenarioPath): the scenario is empty; call verbs such as launch() and home() (see docs/lua-api.md)"
        : "\(config.scenarioPath): the scenario calls no verb (launch(), home(), advance(…) …): there is nothing to simulate"
    }
    if fatal == nil {
      do { try start() } catch { fatal = fatal ?? "\(error)" }
    }
    return finish(error: fatal)
  }

  // MARK: Starting the run

  /// Builds the profile, reads the app, writes the header, creates the simulator (once).
  private func start() throws {
    guard simulator == nil else { return }
    let seed = config.seed ?? declaration.seed ?? 1
    var profile = try self.profile(of: plan)
    let appPath: String?
    if let p = config.appPath { appPath = p }
    else if let p = declaration.app { appPath = ScriptLoader.join(ScriptLoader.directory(of: config.scenarioPath), p) }
    else { appPath = nil }
    let appFile = appPath ?? EmptyApp.path
    let appSource: String
    var appModules: [EmbeddedScript] = []
    do {
      appSource = try appPath.map { try loader.read($0, role: "app") } ?? EmptyApp.source
      try loader.modules(requiredBy: appSource, path: appFile, side: .app, into: &appModules)
    } catch let e as ScriptError {
      throw LuaRaise(e.message)
    }
    let app = AppHost(path: appFile, source: appSource, loader: loader, modules: appModules,
                      profile: profile, seed: seed, output: output, wallLimitSeconds: config.wallLimitSeconds)
    // A mistake in the app's declarations is known before the run starts: no log, no event.
    if let problem = app.declarationProblem() { throw LuaRaise(problem.message) }
    try settle(&profile, by: app)
    var scripts = [EmbeddedScript(role: "scenario", path: config.scenarioPath, source: scenarioSource),
                   EmbeddedScript(role: "app", path: appFile, source: appSource)]
    scripts += ModuleSide.headerEntries(scenario: scenarioModules, app: appModules)
    let header = LogHeader(lifesim: lifesimVersion, lua: LuaVM.version, profile: profile.json,
                           scenes: profile.scenes, seed: seed, scripts: scripts)
    self.header = header
    var writer: BackgroundLogWriter?
    if let out = config.outputPath {
      // The log never replaces a script of its own run, --force or not.
      if let refusal = FileIdentity.refusal(writing: out, over: scripts.map(\.path)) { throw LuaRaise(refusal) }
      do {
        // The log is written on its own thread; the run only queues events.
        writer = BackgroundLogWriter(
          try LogWriter(path: out, header: header, options: .init(overwrite: config.overwrite, syncEveryEvents: 0)))
      } catch {
        throw LuaRaise(error.description)
      }
    }
    let recorder = EventRecorder(writer: writer, maxEvents: config.maxEvents, onEvent: onEvent) { [weak self] message in
      guard let self else { return }
      fatal = fatal ?? message
      vm?.abort()
    }
    self.recorder = recorder
    onHeader(header)
    self.app = app
    let sim = Simulator(profile: profile, driver: app) { [weak self] event in
      if event.body.termination != nil { self?.latestTerminationUs = event.t }
      recorder.record(event)
    }
    simulator = sim
  }

  /// The run's plan: the recorded profile (replay), the scenario's declaration and the command
  /// line; the app's layer is added once the app is read.
  private var plan: RunPlan {
    RunPlan(recorded: config.recordedProfile, scenario: declaration.planLayer,
            commandLine: .init(ios: config.ios, sdk: config.sdk, noScenes: config.scenes == false, choices: config.choices),
            appIsNewBuild: config.appSDKOverridesRecorded)
  }

  /// The plan's profile, or its refusal placed where the author looks: an iOS that is no
  /// release at the scenario, a manifest that disagrees with the app named, anything else at
  /// the scenario's declaration.
  private func profile(of plan: RunPlan, appPath: String? = nil) throws -> Profile {
    do throws(RunPlan.Refusal) { return try plan.profile() } catch {
      let at = declarationAt ?? config.scenarioPath
      switch error.kind {
      case .ios: throw LuaRaise("\(config.scenarioPath): \(error)")
      case .manifest: throw LuaRaise("\(at): \(error) (\(appPath ?? config.scenarioPath))")
      case .scenes, .device, .knob: throw LuaRaise("\(at): \(error)")
      }
    }
  }

  /// What the app declares and the profile follows: its SDK, `multipleScenes`, and the scene
  /// manifest (see `RunPlan`).
  private func settle(_ profile: inout Profile, by app: AppHost) throws {
    var plan = self.plan
    plan.app = RunPlan.AppLayer(app.declaredLayout())
    profile = try self.profile(of: plan, appPath: app.path)
    app.profile = profile
  }

  private func finish(error initial: String?) -> RunResult {
    var error = initial
    let sim = simulator
    if let error, let sim { sim.note("scriptError", error) }
    if error == nil, let stoppedByFault, let sim { sim.note("stopped", stoppedByFault) }
    let stopped = error == nil ? stoppedByFault : nil
    // A run that fails (a fault no expectation named) or stops said something; one that passes
    // with no expectation passed without checking anything: a diagnostic, recorded last.
    if error == nil, let sim, sim.state.expectationsPassed + sim.state.expectationsFailed == 0, sim.state.unexpectedFaults.isEmpty {
      let warning = RunWarning.noExpectations(config.scenarioPath)
      warnings.append(warning)
      sim.note("noExpectations", warning.message, code: warning.code)
    }
    let outcome = sim?.outcome(error: error, stopped: stopped) ?? Simulator.outcome(of: LifecycleState(), error: error)
    do { try recorder?.finish(outcome: outcome) } catch let e { if error == nil { error = e.description } }
    let state = sim?.state ?? LifecycleState()
    let failed = state.expectationsFailed > 0 || !state.unexpectedFaults.isEmpty
    let strict = (config.strict || declaration.strict) && error == nil
    // A sceneless run the command line forced (`--no-scenes`, `test --scenes both`) asks "what if
    // this app had no scene manifest": the mandate's notes answer it, and --strict leaves them be.
    let forcedSceneless = config.scenes == false && declaration.scenes != false
    let tolerated = expectedDiagnostics.union(forcedSceneless ? [Diagnostic.Code.sceneLifecycleRequired.rawValue] : [])
    let failedDiagnostic = strict ? state.diagnostics.first { !tolerated.contains($0.code) }?.code : nil
    let status: Int32 = error != nil ? 2 : (failed || failedDiagnostic != nil ? 1 : 0)
    return RunResult(exitStatus: status, error: error, stopped: stopped, header: header, state: state, outcome: state.annotated(outcome: outcome),
                     events: recorder?.seq ?? 0, endTime: sim?.clock ?? 0, declaration: declaration, warnings: warnings,
                     failedDiagnostic: failedDiagnostic)
  }

  // MARK: The scenario API

  /// Stops the run: every Lua frame of the scenario unwinds, and `pcall` cannot catch it.
  private func stop(_ message: String) -> LuaRaise {
    if fatal == nil { fatal = message }
    vm.abort()
    return LuaRaise(message)
  }

  private func location(_ vm: LuaVM) -> String? { vm.callerLocation() }

  /// Stops the run with `message` at the scenario line that made the call (`file:line: message`).
  func scriptError(_ vm: LuaVM, _ message: String) -> LuaRaise {
    stop("\(location(vm) ?? config.scenarioPath): \(message)")
  }

  /// A verb: start the run, check the app did not leave a fatal script error, perform.
  private func verb(_ vm: LuaVM, _ input: Input) throws {
    let at = location(vm)
    verbsCalled += 1
    do { try start() } catch let e as LuaRaise { throw stop(e.message) }
    guard let sim = simulator else { return }
    vm.resetInstructionBudget()
    app?.startHostWork(at: at)
    window.add(input, at: at, opensWindow: sim.state.expectationWindowChecked)
    do {
      try sim.perform(input, at: at)
    } catch {
      if let message = FaultStop.message(refusing: input.verb, at: at, state: sim.state, faultAtUs: latestTerminationUs) {
        stoppedByFault = message
        vm.abort()
        throw LuaRaise(message)
      }
      throw stop("\(at ?? config.scenarioPath): \(error.message)")
    }
    if let problem = app?.fatal { throw stop(problem.message) }
    if let f = fatal { throw stop(f) }
  }

  private func names(_ vm: LuaVM, _ fn: String) throws -> [CallPattern] {
    guard vm.type(1) == .table else { throw scriptError(vm, "\(fn): expected a list of callback names") }
    var out: [CallPattern] = []
    for i in stride(from: 1, through: vm.rawLength(1), by: 1) {
      vm.rawGet(1, i)
      let s = vm.string(-1)
      vm.pop()
      guard let s else { throw scriptError(vm, "\(fn): entry \(i) is not a string") }
      do { out.append(try CallPattern(s)) } catch {
        throw scriptError(vm, "\(fn): \(error.message)")
      }
    }
    return out
  }

  private func installAPI() {
    Sandbox.pushEnvironment(vm)
    let env = vm.absIndex(-1)
    func def(_ name: String, _ body: @escaping HostFunction.Body) {
      apiNames.append(name)
      vm.push(function: body)
      vm.rawSet(env, name)
    }

    def("scenario") { [unowned self] vm in
      let at = self.location(vm)
      if let first = self.declarationAt { throw self.scriptError(vm, "scenario { } may appear only once (the first is at \(first))") }
      guard self.simulator == nil, self.verbsCalled == 0 else {
        throw self.scriptError(vm, "scenario { } must come before the first verb")
      }
      switch ScenarioDeclaration.read(vm, at: 1) {
      case let .failure(error): throw self.scriptError(vm, error.message)
      case let .success(declaration):
        self.declaration = declaration
        self.declarationAt = at ?? self.config.scenarioPath
      }
      if self.config.seed == nil, let seed = self.declaration.seed { Sandbox.reseed(vm, seed) }
      return 0
    }

    for spec in VerbSpec.all {
      def(spec.name) { [unowned self] vm in try self.verb(vm, try self.read(spec, vm)); return 0 }
    }

    for (name, body) in expectationRows() + stateReadRows() { def(name, body) }
    vm.pop()
  }

  /// `expect_state(word, n)`: scene `n`'s state (active, inactive, background or unattached).
  private func expectSceneState(_ vm: LuaVM) throws -> Int32 {
    let words = ["active", "inactive", "background", "unattached"]
    guard let s = vm.string(1), let expected = SceneActivation(luaName: s) else {
      throw scriptError(vm, "expect_state: a scene's state is \(VerbSpec.oneOf(words))")
    }
    guard let n = vm.wholeNumber(2), n >= 1, n <= Int64(Int32.max) else {
      throw scriptError(vm, "expect_state: expected a scene number (1 names Scene#1), not \(vm.describeValue(2))")
    }
    try start()
    simulator?.expectSceneState(expected, scene: Int(n), at: location(vm))
    return 0
  }

  /// The expectations a scenario checks (`expect_state`, `expect_calls`, …), in the order they are set.
  private func expectationRows() -> [(String, HostFunction.Body)] {
    [
      ("expect_state", { [unowned self] vm in
        if vm.type(2) != .nil, vm.type(2) != .none { return try self.expectSceneState(vm) }
        let s = try self.choice(vm, 1, "expect_state", AppState.self)
        try self.start()
        self.simulator?.expectState(s, at: self.location(vm))
        return 0
      }),
      ("expect_calls", { [unowned self] vm in
        let patterns = try self.names(vm, "expect_calls")
        try self.start()
        let at = self.location(vm)
        self.simulator?.expectCalls(patterns, at: at, window: self.window.description(from: at))
        return 0
      }),
      ("expect_no_calls", { [unowned self] vm in
        let patterns = try self.names(vm, "expect_no_calls")
        try self.start()
        let at = self.location(vm)
        guard let sim = self.simulator else { return 0 }
        let vacuous = sim.expectNoCalls(patterns, at: at, window: self.window.description(from: at))
        if !vacuous.isEmpty { self.warnings.append(.vacuous(vacuous, at: at ?? self.config.scenarioPath, on: sim.profile)) }
        return 0
      }),
      ("expect_diagnostic", { [unowned self] vm in
        guard vm.type(1) == .string, let code = vm.string(1) else {
          throw self.scriptError(vm, "expect_diagnostic: expected a diagnostic code: expect_diagnostic(\"handler_never_called\")")
        }
        try self.start()
        if self.simulator?.expectDiagnostic(code, at: self.location(vm)) == true { self.expectedDiagnostics.insert(code) }
        return 0
      }),
      ("expect_terminated", { [unowned self] vm in
        let reason = vm.type(1) == .nil || vm.type(1) == .none ? nil : try self.choice(vm, 1, "expect_terminated", TerminationReason.self)
        try self.start()
        self.simulator?.expectTerminated(reason, at: self.location(vm))
        return 0
      }),
      ("expect", { [unowned self] vm in
        let message = vm.string(2) ?? "expectation"
        try self.start()
        self.simulator?.expect(vm.bool(1), message, at: self.location(vm))
        return 0
      }),
    ]
  }

  /// What a scenario reads of the run's state: `stored(key)` and `app_state()`.
  private func stateReadRows() -> [(String, HostFunction.Body)] {
    [
      ("stored", { [unowned self] vm in
        guard let key = vm.string(1) else { throw self.scriptError(vm, "stored: expected a key") }
        try self.start()
        try vm.push(json: self.simulator?.state.store[key] ?? .null)
        return 1
      }),
      ("app_state", { [unowned self] vm in
        try self.start()
        vm.push(self.simulator?.state.appState.rawValue ?? "not_running")
        return 1
      }),
    ]
  }
}
