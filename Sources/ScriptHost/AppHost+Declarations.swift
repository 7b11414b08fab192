import Lifecycle
import LuaRuntime

extension AppHost {
  /// What the app declares, known without starting a process (the system reads an app's
  /// Info.plist before launching it): the layout of the process loading or running now, else
  /// of the latest one, or before the first, that of a trial load of the script in a scratch
  /// Lua state with no process behind it. App calls at the top level fail there and end the
  /// trial (as an error does); the trial records nothing and prints nothing.
  /// A pool's hosts share the layout of a trial that ran to its end and read nothing of the
  /// system (no app call, stored value or `choose`): such a trial is a function of what the pool
  /// serves (script, profile, seed), so its next run would declare the same and touch nothing else.
  package func declaredLayout() -> AppLayout {
    if vm != nil { return layout }
    if let declaredLayoutCache { return declaredLayoutCache }
    if let known = statePool?.trialLayout {
      layout = AppLayout()
      declaredLayoutCache = known
      return known
    }
    let readsBefore = servicesReads
    let (_, outcome) = trialLoad()
    let declared = keepTrialLayout()
    if case .completed = outcome, servicesReads == readsBefore { statePool?.trialLayout = declared }
    return declared
  }

  /// The first mistake in what the app script declares, found by a trial load before the run
  /// starts: Lua that does not compile, a mistake in `app { … }`, a handler name no receiver
  /// has, an undeclared root controller. Each is the script's mistake, not the app's crash, so
  /// the run stops before its first event. Nil when there is none, or when the top level
  /// cannot finish without a process (an app call, an error): the launch then checks it.
  func declarationProblem() -> ScriptError? {
    let earlier = fatal
    let (trial, outcome) = trialLoad()
    defer { _ = keepTrialLayout() }
    switch outcome {
    case let .notCompiled(message): return ScriptError(message)
    case .stopped: return fatal == earlier ? nil : fatal
    case .completed: return validateHandlers(trial)
    }
  }

  /// How a trial load of the app's top level ended.
  enum TrialOutcome { case notCompiled(String), stopped, completed }

  /// Loads and runs the app's top level in a scratch Lua state with no process behind it;
  /// `layout` holds what it declared.
  private func trialLoad() -> (LuaVM, TrialOutcome) {
    let trial = LuaVM(memoryLimitBytes: Int(profile.memoryLimitBytes), instructionLimit: Int(profile.instructionLimit))
    trial.wallLimitSeconds = wallLimitSeconds
    trial.register()
    let modules = modules, path = path
    Sandbox.install(on: trial, hooks: Sandbox.Hooks(
      seed: seed, virtualSeconds: { 0 }, print: { _ in },
      require: { vm in try AppHost.require(vm, modules: modules, from: path) }))
    installAPI(trial)
    layout = AppLayout()
    if let error = Sandbox.loadChunk(trial, source: source, name: path) { return (trial, .notCompiled(error)) }
    let result = trial.protectedCall(nargs: 0, nresults: 0, freshBudget: true)
    layout.hasConfigurationMethod = Self.definesConfigurationMethod(trial)
    return (trial, result == .ok ? .completed : .stopped)
  }

  /// Whether `AppDelegate.configurationForConnecting` is a function in `vm` (what the app delegate
  /// implements, as the system reads its class before a launch).
  private static func definesConfigurationMethod(_ vm: LuaVM) -> Bool {
    let top = vm.top
    defer { vm.setTop(top) }
    Sandbox.pushEnvironment(vm)
    vm.rawGet(-1, "AppDelegate")
    guard vm.type(-1) == .table else { return false }
    vm.rawGet(-1, Callback.configurationForConnecting.key)
    return vm.type(-1) == .function
  }

  /// Keeps what a trial load declared as the app's declared layout, and clears `layout`.
  private func keepTrialLayout() -> AppLayout {
    let declared = layout
    layout = AppLayout()
    declaredLayoutCache = declared
    return declared
  }
}
