// BGContinuedProcessingTask (iOS 26, S136): submitted from the foreground, it starts at once
// (its launch handler runs inside the submit), waits behind the running one (`queue`) or is
// refused (`fail`); it reports progress, and the system expires it after
// `continuedNoProgressLimit` without progress, or when the user cancels it from its Live
// Activity, through the same expiration handler (docs/model.md §16).

extension Simulator {
  /// `BGTaskScheduler:submit{ kind = "continued", … }`: refused before iOS 26 (a script error,
  /// as the class is absent); `notPermitted` for an identifier no entry permits or from the
  /// background; a crash with no launch handler registered; `immediateRunIneligible` under
  /// `fail` while another runs; else pending, and started at once when none runs.
  func submitContinuedTask(_ request: BGTaskRequest, at: String?) throws(AppCallError) -> BGTaskSubmitResult {
    guard profile.continuedProcessingTasks else {
      throw .invalid("BGTaskScheduler:submit: kind \"continued\" needs iOS 26 or later (profile: iOS \(profile.ios))")
    }
    let id = request.identifier, work = state.backgroundWork, declared = driver.declaredLayout().bgTaskIdentifiers
    let busy = work.runningContinued != nil
    let result: BGTaskSubmitResult
    if !(declared.contains(id) || BGTaskIdentifierPattern.wildcardPermits(declared, id)) || !state.isForeground {
      result = .notPermitted
    } else if !work.registered.contains(id) {
      result = .noLaunchHandler
    } else if busy, request.continued?.strategy == .fail {
      result = .immediateRunIneligible
    } else {
      result = .pending
    }
    emit(.appCalled(.submitBGTask(request, result: result), at: at))
    do {
      if result == .noLaunchHandler { try crashInCall("No launch handler registered for task with identifier \(id)") }
      if result == .pending, !busy { try startContinuedTask(id) }
    } catch { throw .processEnded }
    return result
  }

  /// `task:updateProgress(done, total)`; for a task that is not a running continued task a note.
  func updateProgress(_ identifier: String, done: Int64, total: Int64, at: String?) throws(AppCallError) {
    guard state.backgroundWork.continued.progress(of: identifier) != nil else {
      note("updateProgressIgnored", "no continued task \"\(identifier)\" is running: the call does nothing")
      return
    }
    guard total > 0, done >= 0, done <= total else {
      throw .invalid("updateProgress: expected 0 ≤ done ≤ total and total > 0, not \(done) of \(total)")
    }
    emit(.appCalled(.updateProgress(identifier: identifier, done: done, total: total), at: at))
  }

  /// Runs the continued task's launch handler: in the app's process as it is (a task submitted
  /// from the foreground), or woken in the background for one that waited in the queue.
  private func startContinuedTask(_ identifier: String) throws(ProcessEnded) {
    if !state.isForeground { try wakeInBackground(repeatingDidEnterBackground: false) }
    let target = BGTaskLabel.launchHandler(identifier)
    try deliver(.launchHandler, target, payload: .object([("kind", .string(BGTaskKind.continued.rawValue))]))
  }

  /// The next queued continued request starts when none runs (after a completion or an expiry
  /// with no handler).
  func startQueuedContinuedTask() throws(ProcessEnded) {
    let work = state.backgroundWork
    guard work.runningContinued == nil, let next = work.queuedContinued, state.process == .running else { return }
    try startContinuedTask(next.request.identifier)
  }

  /// A task's expiry as the `Scheduler` found it due: a continued task's for want of progress.
  func expireContinuedOrBGTask(_ identifier: String) throws(ProcessEnded) {
    let continued = state.backgroundWork.continued.progress(of: identifier) != nil
    try expireBGTask(identifier, cause: continued ? .noProgress : nil)
    if continued { try startQueuedContinuedTask() }
  }

  /// `cancel_task(id)`: the user cancels the continued task from its Live Activity.
  func cancelContinuedTask(_ identifier: String) throws(ProcessEnded) {
    try expireBGTask(identifier, cause: .userCancelled)
    try startQueuedContinuedTask()
  }
}

extension Scheduler {
  /// When a continued task expires for want of progress: `continuedNoProgressLimit` after it
  /// last reported more done, or after its start.
  func continuedExpiry(_ task: RunningBGTask, in s: LifecycleState) -> Int64 {
    let since = s.backgroundWork.continued.progress(of: task.identifier)?.progressedAt ?? task.startedAt
    return since + profile.continuedNoProgressLimit_us
  }
}

extension InputRules {
  /// Why `cancel_task(id)` cannot be performed now (nil: it can).
  func continuedTaskRefusal(_ input: Input, _ s: LifecycleState) -> String? {
    guard case let .cancelTask(id) = input else { return nil }
    guard profile.continuedProcessingTasks else { return "continued processing tasks need iOS 26 or later (profile: iOS \(profile.ios))" }
    let cancellable = s.backgroundWork.cancellableContinued
    guard cancellable.contains(id) else {
      let ids = cancellable.map { "\"\($0)\"" }
      return "no continued task \"\(id)\" is running unexpired" + (ids.isEmpty ? "" : " (running: \(ids.joined(separator: ", ")))")
    }
    return nil
  }
}

extension Simulator {
  /// The BGTaskScheduler app calls (`handle`'s): register, submit (a continued request's rules
  /// apart), completion (the next queued continued task may start) and progress.
  func handleBGTaskCall(_ request: AppRequest, at: String?) throws(AppCallError) -> Int? {
    do {
      switch request {
      case let .registerBGTask(identifier):
        try requireBGTaskScheduler("register")
        return try registerBGTask(identifier, at: at).reply
      case let .submitBGTask(request):
        try requireBGTaskScheduler("submit")
        if request.kind == .continued { return try submitContinuedTask(request, at: at).reply }
        return try submitBGTask(request, at: at).reply
      case let .setTaskCompleted(identifier, success):
        setTaskCompleted(identifier, success: success, at: at)
        try startQueuedContinuedTask()
      case let .updateProgress(identifier, done, total):
        try updateProgress(identifier, done: done, total: total, at: at)
      default:
        break
      }
    } catch let error as AppCallError {
      throw error
    } catch {
      throw .processEnded
    }
    return nil
  }
}
