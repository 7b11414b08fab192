import EventStore
import JSON
import Lifecycle
import LuaRuntime

/// The app script as a process: one sandboxed Lua state (`LuaVM`) per launch, thrown
/// away at termination, so only `store`d data survives (docs/model.md §6).
package final class AppHost: AppDriver {
  let path: String
  let source: String
  let loader: ScriptLoader
  let modules: [EmbeddedScript]
  /// The run's profile; the scenario host settles its SDK once the app's declarations are read.
  package var profile: Profile
  let seed: Int64
  /// The system's services for the job that is running (handed over with every job), kept
  /// until they are released (`servicesEnded`). Not `weak`: every retain of an object with a
  /// weak reference to it takes the slow path, and app calls retain it at every call.
  private(set) var services: AppServices? {
    get { servicesReads &+= 1; return servicesHeld }
    set { servicesHeld = newValue }
  }
  private unowned var servicesHeld: AppServices?
  /// How often `services` was read (by every app call, `stored`, the clock, `choose`): a top
  /// level or trial load that read it not once does the same every time (`AppStatePool` keeps it).
  private(set) var servicesReads = 0
  /// Which object `services` is, known without reading it (it cannot be read once released).
  private var servicesIdentity: ObjectIdentifier?
  /// A script problem that must stop the run (an unknown handler name).
  package private(set) var fatal: ScriptError?

  package private(set) var vm: LuaVM?
  /// The running process's registry references (`AppReferences`).
  private(set) var references: AppReferences?
  /// Set when the process ended while its Lua code was still on the stack.
  private var closePending = false
  var layout = AppLayout()
  /// Where this process's script declared each controller (`controller "Name" { … }`) and
  /// called `app { … }`: the lines a problem in a declaration is reported at.
  var controllerSites: [String: SourceSite] = [:]
  var appSite: SourceSite?
  /// What the app declares (`declaredLayout()`): the latest process's layout, or a trial load's.
  var declaredLayoutCache: AppLayout?
  /// The running process's `choose` draws, and what steers them (`ProcessChoices`).
  var choices = ProcessChoices()

  /// What the app may still write with `log`/`print` (shared with the scenario's `print`).
  let output: OutputBudget
  /// The bytes of each stored value (its canonical JSON and key), for the store quota.
  private var storedBytes: [String: Int] = [:]
  /// The sum of `storedBytes`, kept as it changes (a store is not O(keys)).
  private var storedBytesTotal = 0
  /// The most the app may keep with `store`, all keys together; more is a crash at the `store`.
  static let storedBytesMax = 16 << 20

  /// The wall-clock guard's limit for one call into the app (`WallClock`).
  let wallLimitSeconds: Int
  /// The same guard for the host's own work during a verb (`HostWorkGuard`).
  private var hostWork = HostWorkGuard()

  /// How the app's Lua closures reach this host (`HostLink`).
  private(set) lazy var link = statePool?.link ?? HostLink(self)
  /// Checkpoints of this app's process states, when the host starts its processes from them (explore).
  let statePool: AppStatePool?

  /// The Lua state goes with the host: its finalizers find no host, and the process is marked
  /// ended, so any Lua code they run unwinds at the hook's next count.
  deinit {
    link.clear(ifHost: self)
    vm?.abort()
  }

  /// `statePool`: one that serves this app, profile and seed (`AppStatePool.serves`); any other is not used.
  package init(path: String, source: String, loader: ScriptLoader, modules: [EmbeddedScript], profile: Profile, seed: Int64,
               output: OutputBudget, wallLimitSeconds: Int, statePool: AppStatePool? = nil) {
    self.path = path; self.source = source; self.loader = loader; self.modules = modules
    self.profile = profile; self.seed = seed; self.output = output; self.wallLimitSeconds = wallLimitSeconds
    let pool = statePool.flatMap { $0.serves(path: path, source: source, profile: profile, seed: seed, wallLimitSeconds: wallLimitSeconds) ? $0 : nil }
    self.statePool = pool
    pool?.link.attach(self)
  }

  /// A verb starts at `at`: the host's work for it is guarded from now.
  package func startHostWork(at: String?) { hostWork.start(at: at) }

  /// False, and the run stopped, once the verb's host work has run past the wall-clock limit.
  package func hostWorkMayContinue() -> Bool {
    guard let message = hostWork.overrun(seconds: wallLimitSeconds) else { return true }
    fatal = fatal ?? ScriptError(message)
    return false
  }

  /// Stops the run as a script error at the app line that made the call (`located`: the message
  /// names it): a mistake in `app { … }`, an output budget, the clock's end — not an app fault.
  func stopRun(_ vm: LuaVM, _ message: String, located: Bool = false) -> LuaRaise {
    let error = ScriptError(located ? message : vm.callerLocation().map { "\($0): \(message)" } ?? message)
    fatal = fatal ?? error
    vm.abort()
    return LuaRaise(error.message)
  }

  /// `log`/`print` text, charged to the output budget.
  func writeLog(_ vm: LuaVM, _ text: String, by fn: String) throws {
    if let problem = output.charge(text.utf8.count, by: fn, inCallback: true) {
      throw stopRun(vm, problem)
    }
    try call(.log(text), from: vm)
  }

  /// Refuses (as a script error) time that would take the clock past what a log can hold.
  func checkClock(_ vm: LuaVM, adding us: Int64, by fn: String) throws {
    let clock = services?.clock ?? 0
    if us > LogLimits.timeMaxUs - clock {
      throw stopRun(vm, "\(fn): the virtual clock would pass \(LogLimits.timeMaxUs) µs, the latest time a log can hold")
    }
  }

  // MARK: AppDriver

  package func startProcess(services: AppServices) -> Result<AppLayout, AppFault> {
    keep(services)
    closeNow()
    layout = AppLayout()
    let processSeed = seed &+ Int64(services.state.generation) &* 1_000_003
    choices.restart(seed: processSeed)
    var built = false
    if let restored = statePool?.restore(seed: processSeed) {
      // The state `buildState` left at its checkpoint, and the Swift side as it leaves it.
      vm = restored.vm; references = restored.references
      controllerSites = restored.declared?.controllerSites ?? [:]; appSite = restored.declared?.appSite
      output.startCallback()
      if let declared = restored.declared {
        // The checkpoint follows a top level that read nothing of the system: as it ran then, it would run now.
        layout = declared.layout
        declaredLayoutCache = layout
        return .success(layout)
      }
    } else if let problem = buildState(seed: processSeed) {
      fatal = fatal ?? problem
      return .failure(.processEnded)
    } else {
      built = true
    }
    guard let vm else { return .failure(.processEnded) }
    let readsBefore = servicesReads
    let topLevelFault = fault(vm.protectedCall(nargs: 0, nresults: 0, freshBudget: true), in: "the app script's top level")
    let problem = topLevelFault == nil ? validateHandlers(vm) : nil
    if built {
      offerCheckpointAfterTopLevel(vm, seed: processSeed, same: topLevelFault == nil && problem == nil && servicesReads == readsBefore)
    }
    if let topLevelFault { return .failure(topLevelFault) }
    if let problem {
      fatal = fatal ?? problem
      return .failure(.processEnded)
    }
    declaredLayoutCache = layout
    return .success(layout)
  }

  /// A pool checkpoints a state it has not seen run after its top level, when `same` (the top
  /// level succeeded and read nothing of the system, so it does the same in every process of
  /// the seed); else before the top level, from the next state it builds.
  private func offerCheckpointAfterTopLevel(_ vm: LuaVM, seed processSeed: Int64, same: Bool) {
    guard let statePool, let references, !statePool.checkpointsBeforeTopLevel(seed: processSeed) else { return }
    guard same else { return statePool.topLevelVaries(seed: processSeed, in: vm) }
    statePool.checkpoint(vm, seed: processSeed, references: references, afterTopLevelDeclaring:
      AppStatePool.Declarations(layout: layout, controllerSites: controllerSites, appSite: appSite))
  }

  /// A new Lua state for the process: the sandbox, the app API and the app's chunk loaded, not
  /// yet run; with a pool, built in one of its arenas and checkpointed there (now, or after
  /// the top level: `offerCheckpointAfterTopLevel`). The error: a script
  /// that does not compile stops the run as a script error, not a crash of the app (no event
  /// records it); so does one that declares what no app can (`validateHandlers`).
  private func buildState(seed processSeed: Int64) -> ScriptError? {
    let memory = Int(profile.memoryLimitBytes), instructions = Int(profile.instructionLimit)
    let vm = statePool?.emptyState(seed: processSeed, memoryLimitBytes: memory, instructionLimit: instructions)
      ?? LuaVM(memoryLimitBytes: memory, instructionLimit: instructions)
    vm.wallLimitSeconds = wallLimitSeconds
    vm.register()
    self.vm = vm
    Sandbox.install(on: vm, hooks: Sandbox.Hooks(
      seed: processSeed,
      virtualSeconds: { [link] in Double(link.host?.services?.clock ?? 0) / 1e6 },
      print: { [link] text in
        guard let self = link.host, let vm = self.vm else { return }
        try self.writeLog(vm, text, by: "print")
      },
      require: { [link] vm in try link.host?.require(vm) ?? 0 }))
    installAPI(vm)
    let references = AppReferences(vm)
    self.references = references
    output.startCallback()
    if let error = Sandbox.loadChunk(vm, source: source, name: path) { return ScriptError(error) }
    if statePool?.checkpointsBeforeTopLevel(seed: processSeed) == true {
      statePool?.checkpoint(vm, seed: processSeed, references: references)
    }
    return nil
  }

  package func servicesEnded(_ ended: AppServices) {
    guard servicesIdentity == ObjectIdentifier(ended) else { return }
    services = nil
    servicesIdentity = nil
  }

  /// Keeps the services a job was handed.
  private func keep(_ services: AppServices) {
    self.services = services
    servicesIdentity = ObjectIdentifier(services)
  }

  package func endProcess() {
    guard let vm else { return }
    vm.abort()
    if vm.guestDepth == 0 { closeNow() } else { closePending = true }
  }

  private func closeNow() {
    vm = nil
    references = nil
    closePending = false
  }

  /// The view-controller classes the running process declares, in name order (explore's push
  /// and present targets).
  package func declaredControllers() -> [String] {
    guard let vm else { return [] }
    let top = vm.top
    defer { vm.setTop(top) }
    pushRegistryTable(vm, "controllers")
    return vm.stringKeys(ofTableAt: -1, holding: .table)
  }

  package func declares(controller name: String) -> Bool {
    guard let vm else { return true }
    let top = vm.top
    defer { vm.setTop(top) }
    pushRegistryTable(vm, "controllers")
    vm.rawGet(-1, name)
    return vm.type(-1) == .table
  }

  package func run(_ job: AppJob, services: AppServices) -> Result<JSONValue?, AppFault> {
    keep(services)
    guard let vm, let references, !vm.aborted else { return .failure(.processEnded) }
    if vm.guestDepth == 0 { output.startCallback() }
    let top = vm.top
    var nargs: Int32 = 0
    var wantsValue = false
    switch job {
    case let .callback(.userAction, target, arguments):
      guard pushActionFunction(vm, target: target, payload: arguments.payload) else { vm.setTop(top); return .success(nil) }
      nargs = pushArguments(vm, references, .userAction, target: target, arguments)
    case let .callback(cb, target, arguments):
      guard pushHandler(vm, references, cb, target: target) else { vm.setTop(top); return .success(nil) }
      nargs = pushArguments(vm, references, cb, target: target, arguments)
      wantsValue = cb.returnsValue
    case let .notification(name):
      // Every observer of `name`, in the order they were added, inside one protected call.
      vm.pushReference(references.runObservers)
      pushRegistryTable(vm, "observers")
      vm.push(name)
      nargs = 2
    case let .expiration(task):
      vm.pushReference(references.expirations)
      vm.rawGet(-1, task)
      vm.insert(-2)
      vm.pop()
    case let .after(id):
      vm.pushReference(references.afters)
      vm.rawGet(-1, id)
      vm.pushNil()
      vm.rawSet(-3, id)
      vm.insert(-2)
      vm.pop()
    }
    guard vm.type(top + 1) == .function else { vm.setTop(top); return .success(nil) }
    let result = vm.protectedCall(nargs: nargs, nresults: wantsValue ? 1 : 0, freshBudget: false)
    var outcome: Result<JSONValue?, AppFault> = fault(result, in: job.description).map { .failure($0) } ?? .success(nil)
    if wantsValue, case .ok = result {
      if Self.fillsCoder(job) { pushRegistryTable(vm, "coder") }
      outcome = returnedValue(vm, of: job)
    }
    vm.setTop(top)
    if closePending, vm.guestDepth == 0 { closeNow() }
    return outcome
  }

  /// The value a handler left on top of the stack, as JSON (nil for `nil`); one that cannot be
  /// kept (a function, a cycle, over `returnedBytesMax`) crashes the app, as a wrong type would in Swift.
  private func returnedValue(_ vm: LuaVM, of job: AppJob) -> Result<JSONValue?, AppFault> {
    do {
      let value = try vm.json(at: -1, what: "\(job.description) returned a value lifesim cannot keep")
      let bytes = value.canonicalText.utf8.count
      guard bytes <= Self.returnedBytesMax else {
        return .failure(.error(message: "\(job.description) returned \(bytes) bytes, over the \(Self.returnedBytesMax >> 10) KiB a return value may have",
                               traceback: ""))
      }
      return .success(value == .null ? nil : value)
    } catch {
      return .failure(.error(message: error.message, traceback: ""))
    }
  }

  /// The largest value a handler may return to UIKit (its canonical JSON text).
  static let returnedBytesMax = 1 << 20

  /// What a protected call into the app (running `what`) means for the simulated process.
  private func fault(_ result: LuaVM.CallResult, in what: @autoclosure () -> String) -> AppFault? {
    switch result {
    case .ok: return nil
    case let .error(message, traceback):
      return .error(message: ErrorHints.undefinedCall(message, names: Self.apiNames), traceback: traceback)
    case .instructionLimit: return .instructionLimit
    case .memoryLimit: return .memoryLimit
    case .aborted: return .processEnded
    case let .wallClockLimit(at):
      // Not a fault of the simulated app: the host's guard stops the whole run.
      fatal = fatal ?? ScriptError(WallClock.message(at: at, in: what(), seconds: vm?.wallLimitSeconds ?? 0))
      vm?.abort()
      return .processEnded
    }
  }

  /// Keeps the stored data within `storedBytesMax`; more is a crash at the `store` call.
  func chargeStore(_ vm: LuaVM, key: String, value: JSONValue) throws {
    let bytes = value == .null ? 0 : key.utf8.count + value.canonicalText.utf8.count
    let total = storedBytesTotal - (storedBytes[key] ?? 0) + bytes
    guard total <= Self.storedBytesMax else {
      throw LuaRaise(at: vm, "store: the app's stored data would be \(total) bytes, over its quota of \(Self.storedBytesMax >> 20) MiB")
    }
    storedBytes[key] = bytes == 0 ? nil : bytes
    storedBytesTotal = total
  }

  /// The globals the app API installs, for "did you mean" on a misspelled call.
  static let apiNames = ["after", "app", "background_transfer", "choose", "controller", "dismiss", "hold_lock", "log", "observe", "pop",
                         "present", "push", "release_lock", "require", "store", "stored", "work"]

  // MARK: Handlers

  /// Pushes what UIKit passes: the application, the scene or the controller, then the method's arguments.
  private func pushArguments(_ vm: LuaVM, _ references: AppReferences, _ cb: Callback, target: String,
                             _ arguments: CallbackArguments) -> Int32 {
    if let closureArguments = pushReceiver(vm, references, cb, target: target, arguments) { return closureArguments }
    return pushUIKitArguments(vm, cb, arguments)
  }

  /// Pushes the receiver: UIApplication.shared, the scene, the controller instance or the
  /// notification center. A closure has none: it pushes its own arguments and returns their count.
  private func pushReceiver(_ vm: LuaVM, _ references: AppReferences, _ cb: Callback, target: String,
                            _ arguments: CallbackArguments) -> Int32? {
    switch cb.receiver {
    case .appDelegate:
      Sandbox.pushEnvironment(vm)
      vm.rawGet(-1, "UIApplication")
      if vm.type(-1) == .table { vm.rawGet(-1, "shared"); vm.insert(-3); vm.pop(2) } else { vm.pop(2); vm.pushNil() }
    case .sceneDelegate:
      pushInstance(vm, references, label: arguments.scene ?? services?.sceneLabel ?? SceneState.unconnectedLabel, className: "UIWindowScene")
    case .viewController:
      pushInstance(vm, references, label: target, className: InstanceLabel.className(target))
    case .notificationDelegate:
      Sandbox.pushEnvironment(vm)
      vm.rawGet(-1, "UNUserNotificationCenter")
      vm.insert(-2)
      vm.pop()
    case .closure:
      if cb == .launchHandler, let identifier = BGTaskLabel.identifier(of: target) {
        return pushLaunchHandlerArguments(vm, identifier: identifier, arguments)
      }
      if cb == .sceneRequestErrorHandler {
        vm.push(arguments.payload?["error"]?.stringValue ?? "")
        return 1
      }
      return 0
    case .urlSessionDelegate:
      return pushURLSessionArguments(vm, cb, arguments)
    }
    return nil
  }

  /// Pushes UIKit's arguments of `cb` after its receiver; returns the count with the receiver.
  private func pushUIKitArguments(_ vm: LuaVM, _ cb: Callback, _ arguments: CallbackArguments) -> Int32 {
    let url = arguments.url, completion = arguments.completion, animated = arguments.animated
    switch cb {
    case .willFinishLaunchingWithOptions, .didFinishLaunchingWithOptions:
      vm.newTable()
      if let url { vm.push(url); vm.rawSet(-2, "url") }
      mergeOptions(vm, arguments.payload)
      return 2
    case .openURL:
      vm.push(url ?? ""); return 2
    case .performFetchWithCompletionHandler:
      pushCompletion(vm, completion); return 2
    case .didReceiveRemoteNotification:
      vm.newTable(); pushCompletion(vm, completion); return 3
    case .handleEventsForBackgroundURLSession:
      vm.push(arguments.payload?["identifier"]?.stringValue ?? ""); pushCompletion(vm, completion); return 3
    case .willConnectTo:
      pushSession(vm, arguments.payload)
      vm.newTable()
      if let url { vm.push(url); vm.rawSet(-2, "url") }
      mergeOptions(vm, arguments.payload)
      return 3
    case .openURLContexts:
      vm.newTable(); vm.push(url ?? ""); vm.rawSet(-2, 1); return 2
    case .viewWillAppear, .viewIsAppearing, .viewDidAppear, .viewWillDisappear, .viewDidDisappear:
      // The simulator gives every appearance callback its `animated` (an invariant test holds it).
      vm.push(animated == true); return 2
    case .viewWillTransitionToSize, .willTransitionToTraitCollection:
      vm.push(services?.orientation.rawValue ?? "portrait"); return 2
    case .configurationForConnecting, .didDiscardSceneSessions, .applicationWillResignActive,
         .applicationDidEnterBackground, .applicationWillEnterForeground, .applicationDidBecomeActive,
         .applicationWillTerminate, .applicationDidReceiveMemoryWarning, .applicationProtectedDataWillBecomeUnavailable,
         .applicationProtectedDataDidBecomeAvailable, .sceneDidDisconnect, .sceneWillEnterForeground,
         .sceneDidBecomeActive, .sceneWillResignActive, .sceneDidEnterBackground, .`init`, .loadView, .viewDidLoad,
         .viewWillLayoutSubviews, .viewDidLayoutSubviews, .updateProperties, .didReceiveMemoryWarning,
         .traitCollectionDidChange, .applicationSignificantTimeChange:
      return 1
    case .expirationHandler, .asyncAfter, .launchHandler, .didCompleteWithError, .didFinishEvents, .sceneRequestErrorHandler:
      return 0
    case .userAction:
      return 1 + pushActionArguments(vm, payload: arguments.payload)
    case .willContinueUserActivityWithType, .continueUserActivity, .didFailToContinueUserActivity,
         .performActionForShortcutItem, .sceneWillContinueUserActivityWithType, .sceneContinueUserActivity,
         .sceneDidFailToContinueUserActivity, .scenePerformActionForShortcutItem, .restoreUserActivityState,
         .willPresent, .didReceive:
      return 1 + pushOpeningArguments(vm, cb, arguments)
    case .stateRestorationActivity, .applicationFinishedRestoringState:
      return 1
    case .restoreInteractionStateWith:
      pushPayloadValue(vm, arguments.payload?["activity"]); return 2
    case .shouldSaveSecureApplicationState, .shouldRestoreSecureApplicationState, .shouldSaveApplicationState,
         .shouldRestoreApplicationState, .willEncodeRestorableStateWith, .didDecodeRestorableStateWith,
         .encodeRestorableState, .decodeRestorableState:
      pushCoder(vm, arguments.payload, kept: Self.fillsCoder(cb))
      return 2
    case .viewControllerWithRestorationIdentifierPath:
      pushPayloadValue(vm, arguments.payload?["path"])
      pushCoder(vm, arguments.payload, kept: false)
      return 3
    }
  }

  func pushCompletion(_ vm: LuaVM, _ id: Int?) {
    vm.push { [link] vm in
      if let id { try link.host?.call(.complete(id), from: vm) }
      return 0
    }
  }
}
