import JSON

public struct BackgroundTask: Equatable, Sendable {
  public var id: Int
  public var name: String
  public var expirationCalled = false
}

/// A completion handler UIKit is waiting for (fetch, silent push).
public struct PendingCompletion: Equatable, Sendable {
  public var id: Int
  public var callback: Callback
  public var startedAt: Int64
}

/// Work the app scheduled with `after(seconds, fn)`.
public struct PendingAfter: Equatable, Sendable {
  public var id: Int
  public var due: Int64
}

/// A callback as `expect_calls` sees it.
public struct CallRecord: Equatable, Sendable {
  public var callback: Callback
  public var target: String
  /// The scene it was delivered for: a scene delegate's, or the scene whose window holds the
  /// controller (`expect_calls{"Scene#2.sceneDidBecomeActive"}`); nil for any other receiver.
  public var scene: String?

  public init(callback: Callback, target: String, scene: String? = nil) {
    self.callback = callback; self.target = target; self.scene = scene
  }
}

/// Everything about a run at one instant: a fold over its events (`evolve`).
/// `Equatable`, so a replayed state is compared with the live one whole.
public struct LifecycleState: Equatable, Sendable {
  public var now: Int64 = 0
  public var process: ProcessState = .notRunning
  /// `UIApplication.applicationState`; meaningful while a process exists.
  public var applicationState: ApplicationState = .background
  /// Processes started so far (a relaunch is a new generation).
  public var generation = 0
  public var didFinishLaunchingRan = false
  /// The connected scenes, in connection order (scene apps; one at most today).
  public var scenes: [SceneState] = []
  /// Scenes connected so far in the run, relaunches included: the next one is `Scene#<this + 1>`.
  public var scenesConnected = 0
  /// The scene the latest scene-delegate call was for: once the app has had several, the
  /// exports draw that call, its return and the `UIScene` notification after it on its track.
  public var sceneOfLastSceneDelegateCall: String?
  /// More than one scene was connected at once at some point of the run: from then on the
  /// view-controller events name their scene (`sceneNamedInEvents`).
  public var severalScenesSeen = false
  /// The scene sessions kept (they survive a system kill, not a force quit), the one whose window
  /// was frontmost last at the end (`SceneSession.swift`).
  public var sessions: [SceneSession] = []
  /// The session whose scene was released last: a discard recorded without a number (a log of
  /// one scene, or one written before sessions were named) ends it.
  public var lastDetachedSession: Int?
  /// The activity of a session discarded with it (knob `forceQuitKeepsRestoration`): the next
  /// new session starts with it (docs/model.md §17).
  public var restorationActivityOfDiscardedSession: JSONValue?
  /// Sessions were discarded; `didDiscardSceneSessions` is owed at the next launch.
  public var sessionDiscardPending = false
  /// A sceneless app's window (the app delegate's); a scene app's windows are its scenes'.
  public var applicationWindow: ViewControllerTree?
  public var controllers: [Int: Controller] = [:]
  public var controllerIDs: [String: Int] = [:]
  public var instancesPerClass: [String: Int] = [:]
  public var controllersCreated = 0
  public var tasks = BackgroundTasks()
  public var tasksBegun = 0
  /// When the current stretch in the background began (the allowance counts from here).
  public var backgroundSince: Int64?
  public var completions: [PendingCompletion] = []
  public var completionsIssued = 0
  public var afters: [PendingAfter] = []
  public var aftersScheduled = 0
  /// The app's `requestSceneSessionActivation` calls so far: the next one's number (its `errorHandler`'s `SceneRequest#n`).
  public var sceneActivationsRequested = 0
  /// Notification names the app observes (once per `observe`).
  public var observers: [String] = []
  public var locked = false
  public var lockedAt: Int64?
  /// The app was frontmost when the device locked: unlocking returns to it.
  public var frontmostAtLock = false
  public var protectedDataAvailable = true
  public var interruption: Interruption?
  public var switcherOpen = false
  public var orientation: Orientation = .portrait
  /// The device rotated while the app was away; its controllers hear of it on return.
  public var rotationPending = false
  /// The user force quit the app: background launches are not delivered until the user opens it.
  public var forceQuit = false
  /// Persisted with `store`: survives termination.
  public var store: [String: JSONValue] = [:]
  public var memoryWarnings = 0
  /// The view-controller restoration archive (sceneless apps): survives the process (docs/model.md §17).
  public var restorationArchive: RestorationArchive?
  public var terminations: [Termination] = []
  /// For each of `terminations`: whether the app was in the foreground (MetricKit 27's split).
  public var terminationsInForeground: [Bool] = []
  /// Whether the app is in the foreground now, as a termination would be counted.
  public var foregroundTracker = ForegroundTracker()
  /// Fault terminations (`Termination.isFault`) that no passing `expect_terminated` named: each fails the run.
  public var unexpectedFaults: [Termination] = []
  /// The latest termination is a fault still in `unexpectedFaults`, which the next passing
  /// `expect_terminated` names.
  public var latestFaultUnnamed = false
  /// BGTaskScheduler requests and tasks, background URL sessions' transfers, external power.
  public var backgroundWork = BackgroundWorkState()
  public var expectationsPassed = 0
  public var expectationsFailed = 0
  /// Every note with a code, in the order recorded (`Diagnostic`).
  public var diagnostics: [Diagnostic] = []
  /// The callbacks that returned without calling a completion handler UIKit does not wait for
  /// (a quick action's, `willPresent`'s), each once, in the order first seen: nothing ends the
  /// app for it, but the action is not reported handled.
  public var returnedWithoutCompletion: [Callback] = []
  /// The `choose` sites the run forced that the app asked, each once, in the order first asked,
  /// each also as `SITE@N` for the launch that asked it (at most `forcedSitesReachedMax`): which
  /// forced branches it took.
  public var forcedSitesReached: [String] = []
  /// Room for each of a run's forced sites, and for it in several launches.
  public static let forcedSitesReachedMax = 4 * ForcedChoices.maxSites
  /// The expectation window: the callbacks since the first verb after the previous group of
  /// expectations (or since the start). Every expectation between two verbs checks the same
  /// window, so `launch() expect_calls{…} expect_no_calls{…}` both check the launch.
  /// At most `expectationWindowMax` are kept; `expectationWindowOverflowed` says some were dropped.
  public var expectationWindowCalls: [CallRecord] = []
  /// More than `expectationWindowMax` callbacks entered the expectation window: a call
  /// expectation over it cannot be trusted.
  public var expectationWindowOverflowed = false
  /// An expectation was checked since the last verb: the next verb opens a new expectation window.
  public var expectationWindowChecked = false
  public static let expectationWindowMax = 65_536
  /// The device restarted (`reboot()`) and has not been unlocked since: untilFirstUnlock and
  /// complete data are unavailable; the next `unlock()` is the first unlock (docs/model.md §14).
  public var firstUnlockPending = false
  /// A significant time change reached the suspended process: it is delivered (once, however many
  /// came) when the process next runs, as knob `queuedTimeChangeDelivery` says. Lost with the process.
  public var timeChangePending = false
  /// Protected data came back (an unlock, the first or a later one) while the process was
  /// suspended: `applicationProtectedDataDidBecomeAvailable` is delivered when it next comes to
  /// the foreground. Lost with the process.
  public var protectedDataAvailablePending = false
  /// File locks the app holds (`hold_lock`), by name: true for a lock in a shared container.
  public var heldLocks: [String: Bool] = [:]
  /// The protection class of each stored key kept under another class than untilFirstUnlock.
  public var storeProtection: [String: DataProtection] = [:]
  /// Notification delegate, launch results, completions UIKit does not wait for, a Handoff in
  /// flight (LifecycleState+Openings.swift).
  public var openings = OpeningsState()

  public init() {}

  // MARK: - Derived

  /// The state `expect_state` compares: not_running, inactive, active, background, suspended.
  public var appState: AppState {
    switch process {
    case .notRunning: return .notRunning
    case .prewarmed, .suspended: return .suspended
    case .running:
      switch applicationState {
      case .inactive: return .inactive
      case .active: return .active
      case .background: return .background
      }
    }
  }

  /// The process runs and is on screen (active or inactive).
  public var isForeground: Bool { process == .running && applicationState != .background }

  public func controller(_ label: String) -> Controller? { controllerIDs[label].flatMap { controllers[$0] } }

  public func label(_ id: Int) -> String { controllers[id]?.label ?? "?" }
}

extension LifecycleState {
  /// The only code that changes a run's state: folds one event into it.
  public mutating func evolve(_ event: Event) { evolve(at: event.t, event.body) }

  /// Folds the event with `body` at `t` (µs) into the state: a fold whose bodies are kept
  /// elsewhere (`EventBodyMemo`) lends each without making an `Event` of it.
  public mutating func evolve(at t: Int64, _ body: borrowing EventBody) {
    now = t
    defer { foregroundTracker.follow(body) }
    switch body {
    case let .inputPerformed(input, _):
      if expectationWindowChecked { expectationWindowCalls.removeAll(); expectationWindowOverflowed = false; expectationWindowChecked = false }
      evolve(input: input)
      backgroundWork.evolve(input: input)
    case let .applicationStateChanged(_, to):
      applicationState = to
      backgroundSince = to == .background ? t : nil
    case let .sceneActivationChanged(scene, _, to): changeScene(scene) { $0.activation = to }
    case let .sceneConnected(label, session): connectScene(label, session: session)
    case let .sceneDisconnected(label): disconnectScene(label)
    case let .sceneSessionChanged(created, number): changeSessions(created: created, number: number)
    case let .rootBuilt(container, navigation, labels, scene): buildRoot(container, navigation: navigation, labels, scene: scene)
    case let .pushed(label, scene): push(label, scene: scene)
    case let .popped(label, scene): pop(label, scene: scene)
    case let .presented(label, style, navigation, scene): present(label, style: style, navigation: navigation, scene: scene)
    case let .dismissed(_, scene): dismiss(scene: scene)
    case let .tabSelected(index, _, scene): changeWindow(of: scene) { $0?.selectedTab = index - 1 }
    case let .protectedDataChanged(available): protectedDataAvailable = available
    case let .restorationChanged(change): evolve(restoration: change)
    case let .processStarted(mode, state):
      resetProcess()
      process = mode == .prewarm ? .prewarmed : .running
      applicationState = state
      backgroundSince = state == .background ? t : nil
      generation += 1
    case let .launchContinued(state):
      process = .running
      applicationState = state
      backgroundSince = state == .background ? t : nil
    case .suspended: process = .suspended
    case .resumed:
      process = .running
      backgroundSince = t
    case let .terminated(term):
      recordTermination(term)
      resetProcess()
    case let .callbackDelivered(cb, target, handled, _, arguments):
      evolve(callback: cb, target: target, at: t, completion: arguments.completion, scene: arguments.scene)
      openings.evolve(callback: cb, handled: handled, arguments: arguments, applicationState: applicationState, at: t)
      backgroundWork.evolve(callback: cb, target: target, handled: handled, payload: arguments.payload, at: t)
    case let .returned(name, _, _, _, value):
      if let pending = openings.softCompletions.last(where: { $0.callback.signature == name }),
         !returnedWithoutCompletion.contains(pending.callback) {
        returnedWithoutCompletion.append(pending.callback)
      }
      openings.evolve(returned: name, value: value)
    case let .notificationPosted(name, _, _): backgroundWork.evolve(notification: name)
    case let .noted(name, message, code):
      if let diagnostic = Diagnostic.from(name: name, message: message, code: code) { diagnostics.append(diagnostic) }
    case let .appCalled(call, _):
      evolve(call: call, at: t)
      openings.evolve(call: call)
      backgroundWork.evolve(call: call, at: t)
    case let .crashed(_, _, message, _):
      recordTermination(.crash(message))
      resetProcess()
    case let .expectationChecked(name, passed, _, _):
      if passed { expectationsPassed += 1 } else { expectationsFailed += 1 }
      expectationWindowChecked = true
      if passed, name == ExpectationName.terminated, latestFaultUnnamed {
        unexpectedFaults.removeLast()
        latestFaultUnnamed = false
      }
    }
  }

  private mutating func recordTermination(_ termination: Termination) {
    terminations.append(termination)
    terminationsInForeground.append(foregroundTracker.foreground)
    latestFaultUnnamed = termination.isFault
    if termination.isFault { unexpectedFaults.append(termination) }
  }

  /// What the input changes on the device, as its row of the verb table declares it.
  private mutating func evolve(input: Input) {
    input.spec.deviceChange(input, &self)
  }

  private mutating func evolve(callback cb: Callback, target: String, at t: Int64, completion: Int?, scene: String?) {
    if expectationWindowCalls.count >= Self.expectationWindowMax {
      expectationWindowCalls.removeFirst(Self.expectationWindowMax / 2)
      expectationWindowOverflowed = true
    }
    let record = CallRecord(callback: cb, target: target, scene: sceneOfCall(cb, target: target, named: scene))
    expectationWindowCalls.append(record)
    if cb.receiver == .sceneDelegate { sceneOfLastSceneDelegateCall = record.scene }
    switch cb {
    case .viewDidLoad: setController(target) { $0.viewLoaded = true }
    case .viewWillAppear: setController(target) { $0.appearance = .appearing }
    case .viewDidAppear: setController(target) { $0.appearance = .appeared }
    case .viewWillDisappear: setController(target) { $0.appearance = .disappearing }
    case .viewDidDisappear: setController(target) { $0.appearance = .disappeared }
    case .willTransitionToTraitCollection:
      rotationPending = false
      setController(target) { $0.traitsStale = false }
    case .applicationWillEnterForeground, .sceneWillEnterForeground:
      rotationPending = false
    case .didFinishLaunchingWithOptions: didFinishLaunchingRan = true
    case .didDiscardSceneSessions: sessionDiscardPending = false
    case .applicationDidReceiveMemoryWarning: memoryWarnings += 1
    case .applicationSignificantTimeChange: timeChangePending = false
    case .applicationProtectedDataDidBecomeAvailable: protectedDataAvailablePending = false
    case .expirationHandler:
      if BGTaskLabel.identifier(of: target) == nil, let id = InstanceLabel.number(target) { tasks.markExpired(id: id) }
    case .asyncAfter:
      if let id = InstanceLabel.number(target) { afters.removeAll { $0.id == id } }
    case .willFinishLaunchingWithOptions, .configurationForConnecting, .applicationWillResignActive,
         .applicationDidEnterBackground, .applicationDidBecomeActive, .applicationWillTerminate,
         .applicationProtectedDataWillBecomeUnavailable, .openURL,
         .performFetchWithCompletionHandler, .didReceiveRemoteNotification, .willConnectTo, .sceneDidDisconnect,
         .sceneDidBecomeActive, .sceneWillResignActive, .sceneDidEnterBackground, .openURLContexts, .`init`,
         .loadView, .viewIsAppearing, .viewWillLayoutSubviews, .viewDidLayoutSubviews, .updateProperties,
         .didReceiveMemoryWarning, .viewWillTransitionToSize, .traitCollectionDidChange,
         .willContinueUserActivityWithType, .continueUserActivity, .didFailToContinueUserActivity,
         .performActionForShortcutItem, .sceneWillContinueUserActivityWithType, .sceneContinueUserActivity,
         .sceneDidFailToContinueUserActivity, .scenePerformActionForShortcutItem, .restoreUserActivityState,
         .willPresent, .didReceive, .launchHandler, .handleEventsForBackgroundURLSession, .didCompleteWithError,
         .didFinishEvents, .sceneRequestErrorHandler:
      break
    case .userAction:
      break
    case .stateRestorationActivity, .restoreInteractionStateWith, .shouldSaveSecureApplicationState,
         .shouldRestoreSecureApplicationState, .shouldSaveApplicationState, .shouldRestoreApplicationState,
         .willEncodeRestorableStateWith, .didDecodeRestorableStateWith, .viewControllerWithRestorationIdentifierPath,
         .encodeRestorableState, .decodeRestorableState, .applicationFinishedRestoringState:
      break  // what restoration keeps is recorded by `restoration` events
    }
    if let completion {
      if !OpeningsState.isSoftCompletion(cb, applicationState: applicationState) {
        completions.append(PendingCompletion(id: completion, callback: cb, startedAt: t))
      }
      completionsIssued = max(completionsIssued, completion)
    }
  }

  private mutating func evolve(call: AppCall, at t: Int64) {
    switch call {
    case let .beginBackgroundTask(name, task):
      tasks.begin(BackgroundTask(id: task, name: name))
      tasksBegun = max(tasksBegun, task)
    case let .endBackgroundTask(task): tasks.end(id: task)
    case let .store(key, value, protection):
      store[key] = value
      storeProtection[key] = value == nil || protection == .untilFirstUnlock ? nil : protection
    case let .holdLock(name, shared): heldLocks[name] = shared
    case let .releaseLock(name): heldLocks[name] = nil
    case let .observe(name): observers.append(name)
    case let .after(us, id):
      afters.append(PendingAfter(id: id, due: t + us))
      aftersScheduled = max(aftersScheduled, id)
    case let .completion(id): completions.removeAll { $0.id == id }
    case let .requestSceneActivation(session, _):
      sceneActivationsRequested += 1
      if let session { activateSession(session) }
    case .work, .log, .push, .pop, .present, .dismiss, .setNotificationDelegate, .restorationHandler, .registerBGTask,
         .submitBGTask, .setTaskCompleted, .updateProgress, .backgroundTransfer, .extendStateRestoration, .completeStateRestoration,
         .requestSceneDestruction, .delegateWindow, .frameWindow:
      break
    case let .choose(site, _, forced):
      // The site, and the site in this launch (`SITE@N`), which a choice forced for it alone names.
      for reached in [site, ForcedChoices.site(site, launch: generation)] where forced {
        if forcedSitesReached.count < Self.forcedSitesReachedMax, !forcedSitesReached.contains(reached) { forcedSitesReached.append(reached) }
      }
    }
  }

  private mutating func setController(_ label: String, _ change: (inout Controller) -> Void) {
    guard let id = controllerIDs[label], var c = controllers[id] else { return }
    change(&c)
    controllers[id] = c
  }

  /// What dies with the process: everything but the store and the scene session.
  private mutating func resetProcess() {
    process = .notRunning
    applicationState = .background
    didFinishLaunchingRan = false
    scenes = []
    applicationWindow = nil
    controllers = [:]
    controllerIDs = [:]
    tasks = []
    backgroundSince = nil
    completions = []
    afters = []
    observers = []
    interruption = nil
    for i in sessions.indices { sessions[i].scene = nil }
    timeChangePending = false
    protectedDataAvailablePending = false
    heldLocks = [:]
    openings = OpeningsState()
    backgroundWork.resetProcess()
  }
}
