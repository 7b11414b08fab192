import EventStore
import Lifecycle

/// The scenario script: its own sandboxed `lua_State` whose verbs drive the
/// simulator. The run (header, log, simulator) starts at the first verb, so
/// `scenario { … }` can set the profile, the seed and the app first.
final class ScenarioHost {
  let config: RunConfiguration
  let loader: ScriptLoader
  let onEvent: (Int64, Event) -> Void
  let onHeader: (LogHeader) -> Void

  private var vm: LuaVM!
  private var scenarioSource = ""
  private var modules: [EmbeddedScript] = []
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
      try loader.modules(requiredBy: scenarioSource, path: config.scenarioPath, into: &modules)
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
        return try AppHost.require(vm, modules: self.modules, from: self.config.scenarioPath)
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
    var profile: Profile
    if let recorded = config.recordedProfile {
      profile = recorded
    } else {
      let ios = config.ios ?? declaration.ios ?? 17
      guard Profile.releases.contains(ios) else {
        throw LuaRaise("\(config.scenarioPath): ios must be a released iOS version (\(Profile.releasesText)), not \(ios)")
      }
      let scenes = config.scenes == false ? false : (declaration.scenes ?? (ios >= 13))
      if scenes, ios < 13 { throw LuaRaise("\(declarationAt ?? config.scenarioPath): scenes need iOS 13 or later (ios = \(ios))") }
      profile = Profile(ios: ios, scenes: scenes)
      for (name, value) in declaration.knobs {
        do { try profile.set(name, value) } catch {
          throw LuaRaise("\(declarationAt ?? config.scenarioPath): " + error.description)
        }
      }
    }
    let appPath: String?
    if let p = config.appPath { appPath = p }
    else if let p = declaration.app { appPath = ScriptLoader.join(ScriptLoader.directory(of: config.scenarioPath), p) }
    else { appPath = nil }
    let appSource: String
    do {
      appSource = try appPath.map { try loader.read($0, role: "app") } ?? "app {}\ncontroller \"ViewController\" {}\n"
      try loader.modules(requiredBy: appSource, path: appPath ?? "(built-in empty app)", into: &modules)
    } catch let e as ScriptError {
      throw LuaRaise(e.message)
    }
    var scripts = [EmbeddedScript(role: "scenario", path: config.scenarioPath, source: scenarioSource),
                   EmbeddedScript(role: "app", path: appPath ?? "(built-in empty app)", source: appSource)]
    scripts += modules
    let header = LogHeader(lifesim: lifesimVersion, lua: LuaVM.version, profile: profile.json,
                           scenes: profile.scenes, seed: seed, scripts: scripts)
    self.header = header
    var writer: BackgroundLogWriter?
    if let out = config.outputPath {
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
    let app = AppHost(path: appPath ?? "(built-in empty app)", source: appSource, loader: loader, modules: modules,
                      profile: profile, seed: seed, output: output, wallLimitSeconds: config.wallLimitSeconds)
    self.app = app
    let sim = Simulator(profile: profile, driver: app) { event in recorder.record(event) }
    app.simulator = sim
    simulator = sim
  }

  private func finish(error initial: String?) -> RunResult {
    var error = initial
    let sim = simulator
    if let error, let sim { sim.note("scriptError", error) }
    let outcome = sim?.outcome(error: error) ?? Simulator.outcome(of: LifecycleState(), error: error)
    do { try recorder?.finish(outcome: outcome) } catch let e { if error == nil { error = e.description } }
    let state = sim?.state ?? LifecycleState()
    let failed = state.expectationsFailed > 0 || !state.unexpectedFaults.isEmpty
    let status: Int32 = error != nil ? 2 : (failed ? 1 : 0)
    return RunResult(exitStatus: status, error: error, header: header, state: state, outcome: outcome,
                     events: recorder?.seq ?? 0, endTime: sim?.clock ?? 0)
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
  private func scriptError(_ vm: LuaVM, _ message: String) -> LuaRaise {
    stop("\(location(vm) ?? config.scenarioPath): \(message)")
  }

  /// Argument 1 as a string, or a script error saying what `verb` expected.
  private func stringArgument(_ vm: LuaVM, _ verb: String, expected: String) throws -> String {
    guard vm.type(1) == .string, let s = vm.string(1) else { throw scriptError(vm, "\(verb): expected \(expected)") }
    return s
  }

  /// The options table at `idx` (absent, or a table with only `allowed` keys), else a script error.
  private func options(_ vm: LuaVM, _ idx: Int32, _ verb: String, allowed: [String]) throws -> Bool {
    switch vm.type(idx) {
    case .nil, .none: return false
    case .table:
      if let problem = vm.unknownKey(inTableAt: idx, allowed: allowed) { throw scriptError(vm, "\(verb): \(problem)") }
      return true
    default:
      throw scriptError(vm, "\(verb): expected an options table ({ \(allowed.map { "\($0) = …" }.joined(separator: ", ")) }), not \(vm.describeValue(idx))")
    }
  }

  /// Option `key` of the table at `idx` as a boolean (absent: false), else a script error.
  private func flagOption(_ vm: LuaVM, _ idx: Int32, _ key: String, _ verb: String) throws -> Bool {
    vm.rawGet(idx, key)
    defer { vm.pop() }
    switch vm.type(-1) {
    case .nil: return false
    case .boolean: return vm.bool(-1)
    default: throw scriptError(vm, "\(verb): \(key) must be true or false, not \(vm.describeValue(-1))")
    }
  }

  /// A verb: start the run, check the app did not leave a fatal script error, perform.
  private func verb(_ vm: LuaVM, _ input: Input) throws {
    let at = location(vm)
    verbsCalled += 1
    do { try start() } catch let e as LuaRaise { throw stop(e.message) }
    guard let sim = simulator else { return }
    vm.resetInstructionBudget()
    do {
      try sim.perform(input, at: at)
    } catch {
      throw stop("\(at ?? config.scenarioPath): \(error.message)")
    }
    if let problem = app?.fatal { throw stop(problem.message) }
    if let f = fatal { throw stop(f) }
  }

  private func seconds(_ vm: LuaVM, _ idx: Int32, _ name: String) throws -> Int64 {
    guard let s = vm.number(idx), s.isFinite, s >= 0, s <= 86_400 * 365 else {
      throw scriptError(vm, "\(name): seconds must be a number from 0 to 31536000")
    }
    return VirtualTime.microseconds(seconds: s)
  }

  private func choice<E: RawRepresentable & CaseIterable>(_ vm: LuaVM, _ idx: Int32, _ verb: String, _: E.Type) throws -> E
  where E.RawValue == String {
    guard let s = vm.string(idx), let e = E(rawValue: s) else {
      let all = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      throw scriptError(vm, "\(verb): expected one of \(all)")
    }
    return e
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
    func simple(_ name: String, _ input: Input) {
      def(name) { [unowned self] vm in try self.verb(vm, input); return 0 }
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

    def("launch") { [unowned self] vm in
      var url: String?
      if try self.options(vm, 1, "launch", allowed: ["url"]) {
        vm.rawGet(1, "url")
        defer { vm.pop() }
        if vm.type(-1) != .nil {
          guard vm.type(-1) == .string else { throw self.scriptError(vm, "launch: url must be a string, not \(vm.describeValue(-1))") }
          url = vm.string(-1)
        }
      }
      try self.verb(vm, .launch(url: url)); return 0
    }
    simple("prewarm", .prewarm)
    simple("home", .home)
    simple("lock", .lock)
    simple("unlock", .unlock)
    def("interrupt") { [unowned self] vm in
      try self.verb(vm, .interrupt(try self.choice(vm, 1, "interrupt", Interruption.self))); return 0
    }
    def("end_interrupt") { [unowned self] vm in
      try self.verb(vm, .endInterrupt(try self.choice(vm, 1, "end_interrupt", InterruptionEnd.self))); return 0
    }
    simple("app_switcher", .appSwitcher)
    def("switch_to") { [unowned self] vm in
      guard let to = vm.string(1), to == "self" || to == "other" else {
        throw self.scriptError(vm, "switch_to: expected \"self\" or \"other\"")
      }
      try self.verb(vm, .switchTo(other: to == "other")); return 0
    }
    simple("force_quit", .forceQuit)
    simple("memory_warning", .memoryWarning)
    simple("memory_pressure", .memoryPressure)
    def("background_launch") { [unowned self] vm in
      try self.verb(vm, .backgroundLaunch(try self.choice(vm, 1, "background_launch", BackgroundEvent.self))); return 0
    }
    def("open_url") { [unowned self] vm in
      let url = try self.stringArgument(vm, "open_url", expected: "a URL string")
      try self.verb(vm, .openURL(url)); return 0
    }
    def("rotate") { [unowned self] vm in
      try self.verb(vm, .rotate(try self.choice(vm, 1, "rotate", Orientation.self))); return 0
    }
    def("push") { [unowned self] vm in
      let name = try self.stringArgument(vm, "push", expected: "a controller name")
      try self.verb(vm, .push(name)); return 0
    }
    simple("pop", .pop)
    def("present") { [unowned self] vm in
      let name = try self.stringArgument(vm, "present", expected: "a controller name")
      var style: PresentationStyle?
      var navigation = false
      if try self.options(vm, 2, "present", allowed: ["navigation", "style"]) {
        vm.rawGet(2, "style")
        if vm.type(-1) != .nil { style = try self.choice(vm, -1, "present", PresentationStyle.self) }
        vm.pop()
        navigation = try self.flagOption(vm, 2, "navigation", "present")
      }
      try self.verb(vm, .present(name, style: style, navigation: navigation)); return 0
    }
    simple("dismiss", .dismiss)
    def("select_tab") { [unowned self] vm in
      guard let i = vm.integer(1) else {
        throw self.scriptError(vm, "select_tab: expected a tab number (1 is the first)")
      }
      try self.verb(vm, .selectTab(Int(i))); return 0
    }
    def("swipe_back") { [unowned self] vm in
      var cancel = false
      if try self.options(vm, 1, "swipe_back", allowed: ["cancel"]) { cancel = try self.flagOption(vm, 1, "cancel", "swipe_back") }
      try self.verb(vm, .swipeBack(cancel: cancel)); return 0
    }
    def("swipe_down") { [unowned self] vm in
      var cancel = false
      if try self.options(vm, 1, "swipe_down", allowed: ["cancel"]) { cancel = try self.flagOption(vm, 1, "cancel", "swipe_down") }
      try self.verb(vm, .swipeDown(cancel: cancel)); return 0
    }
    def("advance") { [unowned self] vm in
      try self.verb(vm, .advance(us: try self.seconds(vm, 1, "advance"))); return 0
    }

    // Expectations
    def("expect_state") { [unowned self] vm in
      let s = try self.choice(vm, 1, "expect_state", AppState.self)
      try self.start()
      self.simulator?.expectState(s, at: self.location(vm))
      return 0
    }
    def("expect_calls") { [unowned self] vm in
      let patterns = try self.names(vm, "expect_calls")
      try self.start()
      self.simulator?.expectCalls(patterns, at: self.location(vm))
      return 0
    }
    def("expect_no_calls") { [unowned self] vm in
      let patterns = try self.names(vm, "expect_no_calls")
      try self.start()
      self.simulator?.expectNoCalls(patterns, at: self.location(vm))
      return 0
    }
    def("expect_terminated") { [unowned self] vm in
      let reason = vm.type(1) == .nil || vm.type(1) == .none ? nil : try self.choice(vm, 1, "expect_terminated", TerminationReason.self)
      try self.start()
      self.simulator?.expectTerminated(reason, at: self.location(vm))
      return 0
    }
    def("expect") { [unowned self] vm in
      let message = vm.string(2) ?? "expectation"
      try self.start()
      self.simulator?.expect(vm.bool(1), message, at: self.location(vm))
      return 0
    }
    def("stored") { [unowned self] vm in
      guard let key = vm.string(1) else { throw self.scriptError(vm, "stored: expected a key") }
      try self.start()
      try vm.push(json: self.simulator?.state.store[key] ?? .null)
      return 1
    }
    def("app_state") { [unowned self] vm in
      try self.start()
      vm.push(self.simulator?.state.appState.rawValue ?? "not_running")
      return 1
    }
    vm.pop()
  }
}
