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
  // scenario { … }
  private var declaredIOS: Int?
  private var declaredScenes: Bool?
  private var declaredSeed: Int64?
  private var declaredApp: String?
  private var declaration = ScenarioDeclaration()
  private var knobs: [(String, Profile.KnobValue, String?)] = []

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
    do {
      scenarioSource = try loader.read(config.scenarioPath, role: "scenario")
      try loader.modules(requiredBy: scenarioSource, path: config.scenarioPath, into: &modules)
    } catch {
      return finish(error: error.message)
    }
    vm = LuaVM(memoryLimitBytes: Self.scenarioMemoryBytes, instructionLimit: Self.scenarioInstructionLimit)
    vm.register()
    Sandbox.install(on: vm, hooks: Sandbox.Hooks(
      seed: config.seed ?? 1,
      virtualSeconds: { [weak self] in Double(self?.simulator?.clock ?? 0) / 1e6 },
      print: { [weak self] text in
        guard let self else { return }
        try self.start()
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
    case let .error(message, _): fatal = fatal ?? message
    case .instructionLimit:
      let at = vm.lastErrorLine.map { "\(config.scenarioPath):\($0)" } ?? config.scenarioPath
      fatal = fatal ?? "\(at): the scenario ran \(Self.scenarioInstructionLimit) instructions without calling a verb (an endless loop?)"
    case .memoryLimit: fatal = fatal ?? "\(config.scenarioPath): the scenario used more than \(Self.scenarioMemoryBytes >> 20) MiB"
    case .aborted: break
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
    let seed = config.seed ?? declaredSeed ?? 1
    var profile: Profile
    if let recorded = config.recordedProfile {
      profile = recorded
    } else {
      let ios = config.ios ?? declaredIOS ?? 17
      guard Profile.iosRange.contains(ios) else { throw LuaRaise("\(config.scenarioPath): ios must be from 12 to 26, not \(ios)") }
      let scenes = config.scenes == false ? false : (declaredScenes ?? (ios >= 13))
      if scenes, ios < 13 { throw LuaRaise("\(config.scenarioPath): scenes need iOS 13 or later (ios = \(ios))") }
      profile = Profile(ios: ios, scenes: scenes)
      for (name, value, at) in knobs {
        do { try profile.set(name, value) } catch {
          throw LuaRaise((at.map { "\($0): " } ?? "") + error.description)
        }
      }
    }
    let appPath: String?
    if let p = config.appPath { appPath = p }
    else if let p = declaredApp { appPath = ScriptLoader.join(ScriptLoader.directory(of: config.scenarioPath), p) }
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
    let recorder = EventRecorder(writer: writer, onEvent: onEvent) { [weak self] error in
      guard let self else { return }
      fatal = fatal ?? error.description
      vm?.abort()
    }
    self.recorder = recorder
    onHeader(header)
    let app = AppHost(path: appPath ?? "(built-in empty app)", source: appSource, loader: loader, modules: modules,
                      profile: profile, seed: seed)
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
    let status: Int32 = error != nil ? 2 : (state.expectationsFailed > 0 ? 1 : 0)
    return RunResult(exitStatus: status, error: error, header: header, state: state, outcome: outcome,
                     events: recorder?.seq ?? 0, endTime: sim?.clock ?? 0,
                     declaration: ScenarioDeclaration(ios: declaredIOS, scenes: declaredScenes, iosRange: declaration.iosRange, iosRangeAt: declaration.iosRangeAt))
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

  /// A verb: start the run, check the app did not leave a fatal script error, perform.
  private func verb(_ vm: LuaVM, _ input: Input) throws {
    let at = location(vm)
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
      vm.push(function: body)
      vm.rawSet(env, name)
    }
    func simple(_ name: String, _ input: Input) {
      def(name) { [unowned self] vm in try self.verb(vm, input); return 0 }
    }

    def("scenario") { [unowned self] vm in
      let at = self.location(vm)
      guard self.simulator == nil else { throw self.scriptError(vm, "scenario { } must come before the first verb") }
      guard vm.type(1) == .table else { throw self.scriptError(vm, "scenario: expected a table") }
      vm.rawGet(1, "ios"); if let i = vm.integer(-1) { self.declaredIOS = Int(i) }; vm.pop()
      vm.rawGet(1, "ios_range")
      if vm.type(-1) != .nil { self.declaration.iosRange = vm.string(-1) ?? ""; self.declaration.iosRangeAt = at }
      vm.pop()
      vm.rawGet(1, "scenes"); if vm.type(-1) == .boolean { self.declaredScenes = vm.bool(-1) }; vm.pop()
      vm.rawGet(1, "seed"); if let s = vm.integer(-1) { self.declaredSeed = s }; vm.pop()
      if self.config.seed == nil, let seed = self.declaredSeed { Sandbox.reseed(vm, seed) }
      vm.rawGet(1, "app"); if let a = vm.string(-1) { self.declaredApp = a }; vm.pop()
      vm.rawGet(1, "knobs")
      if vm.type(-1) == .table {
        let knobs = vm.absIndex(-1)
        var found: [(String, Profile.KnobValue, String?)] = []
        vm.pushNil()
        while vm.next(knobs) {
          let name = vm.string(-2) ?? "?"
          let value: Profile.KnobValue
          switch vm.type(-1) {
          case .boolean: value = .bool(vm.bool(-1))
          case .number: value = .number(vm.number(-1) ?? 0)
          default: value = .string(vm.string(-1) ?? "")
          }
          found.append((name, value, at))
          vm.pop()
        }
        // Applied in name order, so the result never depends on table order.
        self.knobs = found.sorted { $0.0 < $1.0 }
      }
      vm.pop()
      return 0
    }

    def("launch") { [unowned self] vm in
      var url: String?
      if vm.type(1) == .table { vm.rawGet(1, "url"); url = vm.string(-1); vm.pop() }
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
      if vm.type(2) == .table {
        vm.rawGet(2, "style")
        if vm.type(-1) != .nil { style = try self.choice(vm, -1, "present", PresentationStyle.self) }
        vm.pop()
        vm.rawGet(2, "navigation"); navigation = vm.bool(-1); vm.pop()
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
      if vm.type(1) == .table { vm.rawGet(1, "cancel"); cancel = vm.bool(-1); vm.pop() }
      try self.verb(vm, .swipeBack(cancel: cancel)); return 0
    }
    def("swipe_down") { [unowned self] vm in
      var cancel = false
      if vm.type(1) == .table { vm.rawGet(1, "cancel"); cancel = vm.bool(-1); vm.pop() }
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
      vm.push(json: self.simulator?.state.store[key] ?? .null)
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
