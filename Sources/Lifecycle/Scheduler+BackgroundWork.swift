// The times of BGTaskScheduler tasks and background-session completions: when a task
// expires, when a task still not completed after its expiry kills the app, and the words of
// those kills (docs/model.md §16).

extension Scheduler {
  /// What falls due for a BGTask.
  enum BackgroundWorkDue: Equatable {
    /// Its expiration handler (or, with none set, its unsuccessful end).
    case expiration(String)
    /// It was still not completed `bgTaskGrace` after its expiry.
    case graceKill(String)
  }

  /// A BGTask's run time (S120, W1): the refresh allowance or the processing allowance.
  func allowanceUs(_ kind: BGTaskKind) -> Int64 {
    switch kind {
    case .refresh: return profile.bgRefreshAllowance_us
    case .processing: return profile.bgProcessingAllowance_us
    case .continued: return profile.continuedNoProgressLimit_us
    }
  }

  /// When a running task's expiration handler runs: `expirationLead` before its allowance ends.
  func expiry(_ task: RunningBGTask) -> Int64 {
    max(task.startedAt, task.startedAt + allowanceUs(task.kind) - profile.expirationLead_us)
  }

  /// When an expired task not yet completed kills the app: `bgTaskGrace` after its expiry,
  /// counted like every background-execution limit only while the app runs in the background
  /// (nil in the foreground, or before expiry).
  func graceDeadline(_ task: RunningBGTask, in s: LifecycleState) -> Int64? {
    guard let expiredAt = task.expiredAt, s.process == .running, s.applicationState == .background,
          let since = s.backgroundSince else { return nil }
    return max(expiredAt, since) + profile.bgTaskGrace_us
  }

  /// What can fire for BGTasks, as `nextDue` ranks it: expirations with the background tasks'
  /// (kind 1), grace kills with the allowance kills (kind 4); ids after UIKit's own.
  func backgroundWorkDue(in s: LifecycleState) -> [(time: Int64, rank: Int, id: Int, what: Due)] {
    guard s.process == .running else { return [] }
    var out: [(time: Int64, rank: Int, id: Int, what: Due)] = []
    for (i, task) in s.backgroundWork.running.enumerated() {
      if task.expiredAt == nil {
        let due = task.kind == .continued ? continuedExpiry(task, in: s) : expiry(task)
        out.append((due, 1, 1 + i, .backgroundWork(.expiration(task.identifier))))
      } else if let deadline = graceDeadline(task, in: s) {
        out.append((deadline, 4, 1 + i, .backgroundWork(.graceKill(task.identifier))))
      }
    }
    return out
  }

  /// The grace kills in force: blocking work past one ends the process there.
  func backgroundWorkKills(in s: LifecycleState) -> [(deadline: Int64, termination: Termination)] {
    s.backgroundWork.running.compactMap { task in graceDeadline(task, in: s).map { ($0, graceTermination(task)) } }
  }

  /// The kill of a task never completed (0x2182bad2, "background task failing to complete in time", S130).
  func graceTermination(_ task: RunningBGTask) -> Termination {
    Termination(reason: .backgroundTaskExpired, code: "0x2182bad2",
                description: "\(task.kind.className) \"\(task.identifier)\" was not completed: setTaskCompleted(success:) was not called within \(VirtualTime.formatSeconds2(profile.bgTaskGrace_us)) seconds of its expiration")
  }

  /// How long a completion handler UIKit is waiting for may take in the background.
  func completionBudgetUs(_ callback: Callback) -> Int64 {
    callback == .handleEventsForBackgroundURLSession ? profile.urlSessionCompletionAllowance_us : profile.completionHandlerBudget_us
  }

  /// The kill code of a completion handler not called in time (S130): background fetch
  /// 0x2182bad4, background URL session 0x2182bad3, anything else 0x2182bad2.
  func completionKillCode(_ callback: Callback) -> String {
    if callback == .performFetchWithCompletionHandler { return "0x2182bad4" }
    if callback == .handleEventsForBackgroundURLSession { return "0x2182bad3" }
    return "0x2182bad2"
  }
}
