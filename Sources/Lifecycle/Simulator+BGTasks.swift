// BGTaskScheduler (iOS 13 and later): launch handlers registered during the launch, requests
// submitted and held by the system, `bg_task(id)` running one in the background, its expiry
// and completion (docs/model.md §16).

extension Simulator {
  // MARK: - App calls

  /// BGTaskScheduler exists from iOS 13 (knob `bgTaskScheduler`); before, a call is refused.
  func requireBGTaskScheduler(_ call: String) throws(AppCallError) {
    guard profile.bgTaskScheduler else {
      throw .invalid("BGTaskScheduler:\(call): BGTaskScheduler needs iOS 13 or later (profile: iOS \(profile.ios))")
    }
  }

  /// `BGTaskScheduler:register(id, fn)`: the handler is registered, or the identifier is not
  /// declared (the call returns false); after `didFinishLaunching` has returned, or for an
  /// identifier already registered, the app crashes inside the call (S112, D2). An identifier a
  /// wildcard permits (a continued task's) may be registered after launch too (S136).
  func registerBGTask(_ identifier: String, at: String?) throws(ProcessEnded) -> BGTaskRegisterResult {
    let work = state.backgroundWork, declared = driver.declaredLayout().bgTaskIdentifiers
    let byWildcard = profile.continuedProcessingTasks && BGTaskIdentifierPattern.wildcardPermits(declared, identifier)
    let result: BGTaskRegisterResult
    if work.launchFinished, !byWildcard { result = .late }
    else if work.registered.contains(identifier) { result = .duplicate }
    else { result = declared.contains(identifier) || byWildcard ? .registered : .undeclared }
    emit(.appCalled(.registerBGTask(identifier: identifier, result: result), at: at))
    switch result {
    case .registered, .undeclared: return result
    case .late: try crashInCall("All launch handlers must be registered before application finishes launching")
    case .duplicate: try crashInCall("Launch handler for task with identifier \(identifier) has already been registered")
    }
  }

  /// `BGTaskScheduler:submit{…}` (S113): pending, refused, or, for a declared identifier with
  /// no launch handler in this process, a crash inside the call.
  func submitBGTask(_ request: BGTaskRequest, at: String?) throws(ProcessEnded) -> BGTaskSubmitResult {
    let id = request.identifier, work = state.backgroundWork
    let result: BGTaskSubmitResult
    if !driver.declaredLayout().bgTaskIdentifiers.contains(id) {
      result = .notPermitted
    } else if !work.registered.contains(id) {
      result = .noLaunchHandler
    } else if profile.backgroundRefreshStatus != .available {
      result = .unavailable
    } else {
      let others = work.pending.filter { $0.request.kind == request.kind && $0.request.identifier != id }
      result = others.count >= Self.pendingRequestsMax(request.kind) ? .tooManyPendingTaskRequests : .pending
    }
    emit(.appCalled(.submitBGTask(request, result: result), at: at))
    if result == .noLaunchHandler { try crashInCall("No launch handler registered for task with identifier \(id)") }
    return result
  }

  /// How many requests of a kind may be pending at once (S113).
  static func pendingRequestsMax(_ kind: BGTaskKind) -> Int {
    switch kind {
    case .refresh: return 1
    case .processing: return 10
    case .continued: return Int.max  // queued behind the running one; no limit is known
    }
  }

  /// `task:setTaskCompleted(ok)`; for a task that is not running a note, as the system only logs it.
  func setTaskCompleted(_ identifier: String, success: Bool, at: String?) {
    guard state.backgroundWork.running.contains(where: { $0.identifier == identifier }) else {
      note("setTaskCompletedIgnored", "no BGTask \"\(identifier)\" is running: the call does nothing")
      return
    }
    emit(.appCalled(.setTaskCompleted(identifier: identifier, success: success), at: at))
  }

  /// An NSInternalInconsistencyException inside an app call: the app crashes there, whatever
  /// Lua code around the call would do (an Objective-C exception is not a Lua error).
  func crashInCall(_ reason: String) throws(ProcessEnded) -> Never {
    terminate(.crash("NSInternalInconsistencyException: \(reason)"))
    throw ProcessEnded()
  }

  // MARK: - The system runs a task

  /// `bg_task(id)`: the system runs the pending request `identifier` in the background
  /// (`InputRules` has checked it is pending, due and allowed now). After a force quit a refresh
  /// request waits for the user (a note), as may a processing one (knob `processingRunsAfterForceQuit`).
  func runBGTask(_ identifier: String) throws(ProcessEnded) {
    guard let pending = state.backgroundWork.pendingRequest(identifier) else { return }
    let kind = pending.request.kind
    if state.forceQuit, kind == .refresh || !profile.processingRunsAfterForceQuit {
      note("bgTaskHeld", "the user force quit the app: the \(kind.rawValue) task \"\(identifier)\" waits until the user opens it again")
      return
    }
    try wakeInBackground(repeatingDidEnterBackground: false)
    let target = BGTaskLabel.launchHandler(identifier)
    let handled = driver.implements(.launchHandler, target: target)
    try deliver(.launchHandler, target, payload: .object([("kind", .string(kind.rawValue))]))
    if !handled { try crashInCall("No launch handler registered for task with identifier \(identifier)") }
  }

  /// The task's expiration: its `expirationHandler` runs (`BGTask#<id>`); with none set the
  /// task is marked complete, unsuccessful (S115), with a note. A continued task's expiry
  /// carries its cause (`{"cause": …}`).
  func expireBGTask(_ identifier: String, cause: ContinuedExpiryCause? = nil) throws(ProcessEnded) {
    guard let task = state.backgroundWork.running.first(where: { $0.identifier == identifier }), task.expiredAt == nil else { return }
    let target = BGTaskLabel.task(identifier)
    let handled = driver.implements(.expirationHandler, target: target)
    try deliver(.expirationHandler, target, payload: cause.map { .object([("cause", .string($0.rawValue))]) })
    if !handled {
      note("bgTaskExpiredUnhandled",
           "\(task.kind.className) \"\(identifier)\" expired with no expirationHandler set: it is marked complete, unsuccessful")
    }
  }

  /// What the `Scheduler` found due for a BGTask: its expiration, or the kill of a task still
  /// not completed after it.
  func fireBackgroundWork(_ due: Scheduler.BackgroundWorkDue) throws(ProcessEnded) {
    switch due {
    case let .expiration(identifier):
      try expireContinuedOrBGTask(identifier)
    case let .graceKill(identifier):
      if let task = state.backgroundWork.running.first(where: { $0.identifier == identifier }) {
        terminate(scheduler.graceTermination(task))
      }
    }
  }

  // MARK: - Around every verb

  /// Before a verb: the user taking the device ends every processing task at once (S114).
  func backgroundWorkBefore(_ input: Input) {
    guard input.userTakesDevice else { return }
    for task in state.backgroundWork.running where task.kind == .processing && task.expiredAt == nil {
      do { try expireBGTask(task.identifier) } catch { return }
    }
  }

  /// After a verb: an app the user has opened hears of the transfers a force quit cancelled.
  func backgroundWorkAfter(_ input: Input) {
    guard input.userTakesDevice else { return }
    do { try deliverCancelledTransfers() } catch {}
  }

  // MARK: - Background fetch on iOS 13 and later

  /// Whether background fetch is withheld: from iOS 13 an app that declares
  /// `BGTaskSchedulerPermittedIdentifiers` never gets it (S118), with a note.
  func withholdsFetch(_ event: BackgroundEvent) -> Bool {
    guard event == .fetch, profile.bgTaskScheduler, !driver.declaredLayout().bgTaskIdentifiers.isEmpty else { return false }
    note("fetchNotDelivered", "the app declares bgTaskIdentifiers (BGTaskSchedulerPermittedIdentifiers): iOS 13 and later deliver it no background fetch")
    return true
  }

  /// From iOS 13 a fetch handler is deprecated (S119): one note each time it is called.
  func noteDeprecatedFetch(_ event: BackgroundEvent) {
    guard event == .fetch, profile.bgTaskScheduler, driver.implements(.performFetchWithCompletionHandler, target: "AppDelegate")
    else { return }
    note("fetchDeprecated", "application(_:performFetchWithCompletionHandler:) is deprecated from iOS 13: use a BGAppRefreshTask")
  }
}

extension InputRules {
  /// Why `bg_task`, `power` or `transfer_done` cannot be performed now (nil: it can). The
  /// device being locked never matters: the system runs them before the first unlock too.
  func backgroundWorkRefusal(_ input: Input, _ s: LifecycleState, _ clock: Int64) -> String? {
    let work = s.backgroundWork
    if case let .bgTask(id) = input {
      guard profile.bgTaskScheduler else { return "BGTaskScheduler needs iOS 13 or later (profile: iOS \(profile.ios))" }
      guard let pending = work.pendingRequest(id) else {
        let ids = work.pending.map { "\"\($0.request.identifier)\"" }
        return "no task request \"\(id)\" is pending" + (ids.isEmpty ? "" : " (pending: \(ids.joined(separator: ", ")))")
      }
      if pending.request.kind == .continued { return "the continued request \"\(id)\" starts on its own when the running one ends, not by bg_task" }
      if clock < pending.dueAt { return "the request \"\(id)\" is not due before \(VirtualTime.format(pending.dueAt)) s" }
      if s.isForeground { return "the system runs no BGTask while the app is in the foreground" }
      if pending.request.requiresExternalPower, !work.externalPower {
        return "the request \"\(id)\" requires external power: power(true) first"
      }
      if work.running.contains(where: { $0.identifier == id }) { return "the task \"\(id)\" is still running" }
    }
    if case let .transferDone(session) = input, work.finishedTransfers(session, at: clock).isEmpty {
      let inSession = work.transfers.inSession(session)
      if inSession.isEmpty { return "no transfer is running in background session \"\(session)\"" }
      if inSession.allSatisfy(\.cancelled) { return "the transfers of session \"\(session)\" were cancelled by the force quit" }
      let next = inSession.filter { !$0.cancelled }.map { $0.startedAt + $0.durationUs }.min() ?? clock
      return "no transfer of session \"\(session)\" has run its time yet (the first finishes at \(VirtualTime.format(next)) s)"
    }
    return nil
  }
}
