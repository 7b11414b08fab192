import JSON

/// The model of iOS: decides what happens for each input and app call, as
/// events, and folds every event into `state` with `evolve` — the only place
/// state changes, so replaying the log rebuilds the same state.
///
/// Its parts, one job each: `InputRules` (which verbs make sense now), the UIKit
/// sequences (Simulator+Lifecycle, Simulator+ViewControllers), `Scheduler` (the clock,
/// deadlines, watchdogs, `after` bookkeeping, termination texts), and `handle(_:at:)`,
/// the one entry point for app calls (Simulator+AppCalls). This file records events,
/// runs app code and lets time pass.
///
/// One virtual clock (`clock`, µs). App code consumes time only through
/// `work`; pending things (expiration handlers, kill deadlines, `after` work,
/// the protected-data lock) are derived from the state and fire in
/// (time, kind, id) order, so ties break the same way every run.
public final class Simulator: AppServices {
  public let profile: Profile
  public private(set) var state = LifecycleState()
  /// Virtual now, µs. Never goes backwards; may be ahead of the last event.
  public var clock: Int64 { scheduler.clock }
  public let driver: AppDriver
  private let record: (Event) -> Void
  /// Which verbs make sense now (`legalInputs` lists them, for exploration).
  public let rules: InputRules
  var scheduler: Scheduler

  /// Nesting of app code (0: UIKit is not inside any app code).
  var depth = 0
  /// Inside a foreground launch (the launch watchdog applies, not the hang limit).
  var launching = false
  /// The app's top-level code is running (process creation): app calls are allowed.
  var loadingApp = false
  var layout = AppLayout()
  /// What opens the app in the verb being performed (Opening.swift); nil outside those verbs.
  var opening: Opening?
  /// The app's scene requests (`requestSceneSessionActivation`…) not yet served: UIKit serves
  /// them once the app code that made them has returned (Simulator+Scenes.swift).
  var sceneRequests: [SceneRequest] = []
  /// The window `focus(n)` launches or returns the app into: the next connection reconnects it,
  /// whatever app code asked for in between.
  var windowToReconnect: Int?
  /// The app-delegate handlers `diagnoseHandlers` looks for on this profile, found once.
  lazy var handlersToDiagnose: [Callback] = profile.scenes
    ? Callback.skippedForScenes(on: profile)
    : (profile.sdk >= IOSRelease.firstSDKDeprecatingAppDelegateLifeCycle
      ? Callback.allCases.filter { $0.deprecatedInSDK26 && $0.canBeDelivered(on: profile) } : [])

  /// `record` receives every event after it is folded into `state` (the log writer, a test's array).
  public init(profile: Profile, driver: AppDriver, record: @escaping (Event) -> Void) {
    self.profile = profile
    self.driver = driver
    self.record = record
    rules = InputRules(profile: profile)
    scheduler = Scheduler(profile: profile)
  }

  deinit { driver.servicesEnded(self) }

  // MARK: - Recording

  func emit(_ body: EventBody) {
    let event = Event(t: clock, body)
    state.evolve(event)
    record(event)
  }

  /// Records a note (a script error, a `log` from the scenario side); with a `code`, a
  /// diagnostic (`Diagnostic`), which the outcome lists and `--strict` fails on.
  public func note(_ name: String, _ message: String, code: String? = nil) {
    emit(.noted(name: name, message: message, code: code))
  }

  // MARK: - Inputs (scenario verbs)

  /// Performs a scenario verb: validates it against the state, records it,
  /// runs UIKit's sequence, then lets pending work due now run.
  public func perform(_ input: Input, at: String? = nil) throws(ScenarioError) {
    let rules = self.rules, clock = self.clock, driver = self.driver
    if let refused = inPlace({ rules.check(input, state: $0, clockUs: clock, declares: driver.declares(controller:),
                                           actions: driver.actions(of:)) }) {
      throw refused
    }
    scheduler.beginVerb()
    emit(.inputPerformed(input, at: at))
    backgroundWorkBefore(input)
    do {
      try run(input)
      try serveSceneRequests()
    } catch {}
    backgroundWorkAfter(input)
    settle()
    if let runaway = scheduler.runaway { throw runaway }
  }

  // MARK: - Running app code

  /// Records a callback and, if the app implements it, runs it; returns what the handler
  /// returned when UIKit reads it (`Callback.returnsValue`), else nil.
  /// `animated` is the appearance callbacks' argument (nil for every other callback); `payload`
  /// any other UIKit argument (`CallbackArguments.payload`).
  @discardableResult
  /// `scene`: the scene a scene-delegate callback is for (nil: the front scene); the log names it
  /// once the app has had several scenes at once.
  func deliver(_ cb: Callback, _ target: String, url: String? = nil, completion: Int? = nil,
               animated: Bool? = nil, payload: JSONValue? = nil, scene: String? = nil) throws(ProcessEnded) -> JSONValue? {
    let handled = driver.implements(cb, target: target)
    let named = cb.receiver == .sceneDelegate && state.severalScenesSeen ? scene ?? state.frontScene?.label : nil
    let arguments = CallbackArguments(url: url, completion: handled ? completion : nil, animated: animated, payload: payload,
                                      scene: named)
    emit(.callbackDelivered(cb, target: target, handled: handled, depth: depth, arguments: arguments))
    guard handled else { return nil }
    return try runApp(.callback(cb, target: target, arguments: arguments), name: cb.signature, target: target)
  }

  /// Posts a notification; the app's observers run if it has any.
  func post(_ name: String) throws(ProcessEnded) {
    assert(NotificationName.all.contains(name), "\(name) is posted but observe does not accept it")
    let handled = state.observers.contains(name)
    emit(.notificationPosted(name: name, handled: handled, depth: depth))
    guard handled else { return }
    try runApp(.notification(name), name: name, target: "NotificationCenter")
  }

  /// Runs app code under the hang watchdog; returns what it returned (see `AppDriver.run`).
  @discardableResult
  func runApp(_ job: AppJob, name: String, target: String) throws(ProcessEnded) -> JSONValue? {
    let generation = state.generation
    let start = clock
    // BGTask closures run on the task's queue, off the main thread: no hang watchdog.
    let watchHang = depth == 0 && inPlace({ $0.isForeground }) && !launching && BGTaskLabel.identifier(of: target) == nil
    if watchHang {
      scheduler.arm(.foregroundHang(handler: name))
    }
    depth += 1
    let result = driver.run(job, services: self)
    depth -= 1
    if watchHang, state.generation == generation { scheduler.disarmInnermost() }
    guard state.generation == generation, state.process != .notRunning else { throw ProcessEnded() }
    switch result {
    case let .failure(fault):
      try fail(fault, in: name, target: target)
    case let .success(value):
      emit(.returned(name: name, target: target, usedUs: clock - start, depth: depth, value: value))
      return value
    }
  }

  /// App code ended badly: record the kill and end the process.
  func fail(_ fault: AppFault, in name: String, target: String) throws(ProcessEnded) -> Never {
    switch fault {
    case let .error(message, traceback):
      emit(.crashed(name: name, target: target, message: message, traceback: traceback))
      endProcess()
    case .instructionLimit:
      terminate(scheduler.instructionLimitTermination(in: name, target: target))
    case .memoryLimit:
      terminate(scheduler.memoryLimitTermination(in: name))
    case .processEnded:
      break
    }
    throw ProcessEnded()
  }

  func terminate(_ termination: Termination) {
    emit(.terminated(termination))
    endProcess()
  }

  func endProcess() {
    forgetArchiveIfLaunchUnfinished()
    scheduler.disarmAll()
    driver.endProcess()
  }

  // MARK: - Time

  func fire(_ due: Scheduler.Due) throws(ProcessEnded) {
    switch due {
    case .protectedDataLock:
      try protectedData(available: false)
    case .expiration:
      for task in state.tasks where !task.expirationCalled && driver.hostWorkMayContinue() {
        let target = "BackgroundTask#\(task.id)"
        let handled = driver.implements(.expirationHandler, target: target)
        emit(.callbackDelivered(.expirationHandler, target: target, handled: handled, depth: depth, arguments: CallbackArguments()))
        guard handled else { continue }
        try runApp(.expiration(task: task.id), name: Callback.expirationHandler.signature, target: target)
        try checkTaskEnded(afterExpirationOf: task.id)
      }
    case let .after(id):
      guard scheduler.startAfterBlock(id) else { return }
      let target = "after#\(id)"
      emit(.callbackDelivered(.asyncAfter, target: target, handled: true, depth: depth, arguments: CallbackArguments()))
      try runApp(.after(id: id), name: Callback.asyncAfter.signature, target: target)
    case let .completionKill(c):
      terminate(scheduler.completionTermination(c))
    case .allowanceKill:
      if let task = state.tasks.first { terminate(scheduler.allowanceTermination(task)) }
    case .handoff:
      try continueHandoff()
    case let .backgroundWork(due):
      try fireBackgroundWork(due)
    }
  }

  /// Runs what is due by now, then suspends the app if nothing keeps it running.
  func settle() {
    while scheduler.runaway == nil, let next = inPlace({ $0.nextDue(in: $1) }), next.time <= clock {
      do { try fire(next.what) } catch {}
    }
    suspendIfIdle()
  }

  /// `read` given the state where it lies. Handing `state` to a function the optimizer does not
  /// inline, or calling one of its computed members, first copies all of it (a retain of each of
  /// its references, and a release after): about a tenth of a long run's main thread. An inout
  /// access passes its address instead. `read` must only read: the state cannot change under it.
  @inline(__always)
  func inPlace<Result>(_ read: (inout LifecycleState) -> Result) -> Result { read(&state) }

  /// `read` given the scheduler and the state where they lie: a method of `scheduler` called
  /// as it lies copies all of the scheduler first, as `inPlace` explains for the state.
  @inline(__always)
  func inPlace<Result>(_ read: (inout Scheduler, inout LifecycleState) -> Result) -> Result { read(&scheduler, &state) }

  /// `read` given the state where it lies, for a caller that reads it at every step (explore):
  /// `sim.state` copies all of it first, as `inPlace` explains.
  @inline(__always)
  public func withState<Result>(_ read: (borrowing LifecycleState) -> Result) -> Result { inPlace { read($0) } }

  func suspendIfIdle() {
    // Each member read alone: a copy of the whole state (`let s = state`) retained every one of
    // its references, at every verb.
    if state.process == .running, state.applicationState == .background, state.tasks.isEmpty, state.completions.isEmpty, depth == 0,
       !state.backgroundWork.keepsProcessRunning {
      if killedForLockedFile() { return }
      emit(.suspended)
    }
  }

  /// `advance(seconds)`: lets virtual time pass, firing what falls due in order.
  func advance(_ us: Int64) {
    let target = clock + max(us, 0)
    suspendIfIdle()
    while scheduler.runaway == nil, let next = inPlace({ $0.nextDue(in: $1) }), next.time <= target {
      scheduler.advance(to: next.time)
      do {
        try fire(next.what)
        try serveSceneRequests()
      } catch {}
      suspendIfIdle()
    }
    scheduler.advance(to: target)
  }
}
