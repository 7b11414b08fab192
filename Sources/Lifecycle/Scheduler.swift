/// Time for one run, in the manner of swift-nio's EmbeddedEventLoop: the virtual clock,
/// the main-thread deadlines in force (watchdogs), the bookkeeping of `after` blocks, what
/// falls due next, and the words of every kill a deadline makes.
///
/// It decides nothing about UIKit: the simulator asks it what is due and when a deadline
/// would fall inside blocking work, then runs the consequences itself. Pending things other
/// than watchdogs (expiration handlers, kills, `after` blocks, the protected-data lock) are
/// derived from the state, so ties break by (time, kind, id) the same way every run.
struct Scheduler {
  let profile: Profile
  /// Virtual now, µs. Never goes backwards; may be ahead of the last event.
  private(set) var clock: Int64 = 0
  /// Deadlines the main thread must not block past, innermost last.
  private var watchdogs: [(deadline: Int64, watchdog: Watchdog)] = []

  /// What a watchdog guards; its termination's words are made only if it fires.
  enum Watchdog {
    case launch, didEnterBackground(Callback), willTerminate, foregroundHang(handler: String)
  }

  /// What can fire when nothing else runs, earliest first; ties by kind, then id.
  enum Due {
    case protectedDataLock
    case expiration
    case after(Int)
    case completionKill(PendingCompletion)
    case allowanceKill
    /// The data of the Handoff that launched a scene app has arrived: `scene(_:continue:)`.
    case handoff
    case backgroundWork(BackgroundWorkDue)
  }

  /// Blocks scheduled with `after` that one verb may run. A chain that re-posts itself would
  /// otherwise keep the main thread busy forever at one instant (and the log growing); past
  /// this the run stops with a script error naming where the last block was scheduled.
  static let afterBlocksPerVerbMax = 10_000
  private var afterBlocksThisVerb = 0
  /// Where each pending `after` was called (for that message); dropped when it runs.
  private var afterLocations: [Int: String] = [:]
  /// Set when a verb ran more than `afterBlocksPerVerbMax` blocks: nothing more fires.
  private(set) var runaway: ScenarioError?

  init(profile: Profile) { self.profile = profile }

  // MARK: - The clock

  /// Moves the clock to `time` unless it is already later.
  mutating func advance(to time: Int64) { clock = max(clock, time) }

  // MARK: - Watchdogs

  /// Starts guarding the main thread with `watchdog`, from now.
  mutating func arm(_ watchdog: Watchdog) {
    watchdogs.append((clock + allowanceUs(watchdog), watchdog))
  }

  /// Stops the innermost watchdog (none: nothing happens).
  mutating func disarmInnermost() {
    if !watchdogs.isEmpty { watchdogs.removeLast() }
  }

  /// The process ended: no deadline guards it any more.
  mutating func disarmAll() { watchdogs.removeAll() }

  private func allowanceUs(_ watchdog: Watchdog) -> Int64 {
    switch watchdog {
    case .launch: return profile.launchWatchdog_us
    case .didEnterBackground: return profile.didEnterBackgroundBudget_us
    case .willTerminate: return profile.willTerminateBudget_us
    case .foregroundHang: return profile.foregroundHangLimit_us
    }
  }

  // MARK: - after blocks

  /// A verb starts: its count of `after` blocks starts again.
  mutating func beginVerb() { afterBlocksThisVerb = 0 }

  /// Remembers where `after` block `id` was scheduled, for the runaway message.
  mutating func scheduled(after id: Int, at location: String?) {
    if let location { afterLocations[id] = location }
  }

  /// Block `id` is about to run. False (and `runaway` set) when this verb already ran too many.
  mutating func startAfterBlock(_ id: Int) -> Bool {
    let scheduledAt = afterLocations.removeValue(forKey: id)
    afterBlocksThisVerb += 1
    guard afterBlocksThisVerb > Self.afterBlocksPerVerbMax else { return true }
    runaway = ScenarioError("the app's main thread never goes idle: more than \(Self.afterBlocksPerVerbMax) blocks "
      + "scheduled with after ran during this verb, the last scheduled at \(scheduledAt ?? "an unknown line") "
      + "(a block that schedules itself again?)")
    return false
  }

  // MARK: - What falls due

  /// The earliest thing that fires when nothing else runs.
  func nextDue(in s: LifecycleState) -> (time: Int64, what: Due)? {
    var best: (time: Int64, rank: Int, id: Int, what: Due)?
    func offer(_ time: Int64, _ rank: Int, _ id: Int, _ what: Due) {
      if let b = best, (b.time, b.rank, b.id) <= (time, rank, id) { return }
      best = (time, rank, id, what)
    }
    if s.locked, s.protectedDataAvailable, let at = s.lockedAt { offer(at + profile.protectedDataLockDelay_us, 0, 0, .protectedDataLock) }
    if s.process == .running {
      if s.applicationState == .background, let since = s.backgroundSince, !s.tasks.isEmpty {
        let end = since + profile.backgroundTaskAllowance_us
        if s.tasks.unexpiredCount > 0 {
          offer(max(since, end - profile.expirationLead_us), 1, 0, .expiration)
        }
        offer(end, 4, 0, .allowanceKill)
      }
      for a in s.afters { offer(a.due, 2, a.id, .after(a.id)) }
      for c in s.completions {
        if let deadline = completionDeadline(c, in: s) { offer(deadline, 3, c.id, .completionKill(c)) }
      }
      if !s.scenes.isEmpty, let since = s.openings.pendingHandoff?.activeSince {
        offer(since + profile.handoffTransferDelay_us, 5, 0, .handoff)
      }
    }
    for d in backgroundWorkDue(in: s) { offer(d.time, d.rank, d.id, d.what) }
    return best.map { ($0.time, $0.what) }
  }

  /// The earliest deadline that kills the process if the main thread blocks past it.
  func earliestKill(in s: LifecycleState) -> (deadline: Int64, termination: Termination)? {
    var best = watchdogs.min { $0.deadline < $1.deadline }.map { (deadline: $0.deadline, termination: termination($0.watchdog)) }
    func offer(_ deadline: Int64, _ termination: @autoclosure () -> Termination) {
      if let b = best, b.deadline <= deadline { return }
      best = (deadline, termination())
    }
    if s.process == .running, s.applicationState == .background, let since = s.backgroundSince,
       let task = s.tasks.first {
      offer(since + profile.backgroundTaskAllowance_us, allowanceTermination(task))
    }
    for c in s.completions {
      if let deadline = completionDeadline(c, in: s) { offer(deadline, completionTermination(c)) }
    }
    for k in backgroundWorkKills(in: s) { offer(k.deadline, k.termination) }
    return best
  }

  /// When a fetch or silent-push completion still outstanding kills the app: like the
  /// background-task allowance, only while the app runs in the background, counted from the
  /// later of the callback and the last entry into the background (nil in the foreground).
  func completionDeadline(_ c: PendingCompletion, in s: LifecycleState) -> Int64? {
    guard s.process == .running, s.applicationState == .background, let since = s.backgroundSince else { return nil }
    return max(c.startedAt, since) + completionBudgetUs(c.callback)
  }

  // MARK: - Termination texts

  func termination(_ watchdog: Watchdog) -> Termination {
    switch watchdog {
    case .launch:
      return Termination(reason: .watchdog, code: "0x8badf00d",
        description: "scene-create watchdog transgression: exhausted real (wall clock) time allowance of \(VirtualTime.formatSeconds2(profile.launchWatchdog_us)) seconds")
    case let .didEnterBackground(callback):
      return Termination(reason: .watchdog, code: "0x8badf00d",
        description: "\(callback.signature) did not return: exhausted real (wall clock) time allowance of \(VirtualTime.formatSeconds2(profile.didEnterBackgroundBudget_us)) seconds")
    case .willTerminate:
      return Termination(reason: .user, code: nil,
        description: "applicationWillTerminate(_:) did not return within \(VirtualTime.formatSeconds2(profile.willTerminateBudget_us)) seconds; the process was ended")
    case let .foregroundHang(name):
      return Termination(reason: .watchdog, code: "0x8badf00d",
        description: "scene-update watchdog transgression: \(name) blocked the main thread; exhausted real (wall clock) time allowance of \(VirtualTime.formatSeconds2(profile.foregroundHangLimit_us)) seconds")
    }
  }

  func allowanceTermination(_ task: BackgroundTask) -> Termination {
    Termination(reason: .backgroundTaskExpired, code: "0x2182bad2",
                description: "background task \"\(task.name)\" (\(task.id)) was not ended: exhausted background time allowance of \(VirtualTime.formatSeconds2(profile.backgroundTaskAllowance_us)) seconds")
  }

  func completionTermination(_ c: PendingCompletion) -> Termination {
    Termination(reason: .backgroundTaskExpired, code: completionKillCode(c.callback),
                description: "\(c.callback.signature) did not call its completion handler within \(VirtualTime.formatSeconds2(completionBudgetUs(c.callback))) seconds")
  }

  /// What a kill for going over the app's memory limit says.
  func memoryLimitTermination(in name: String) -> Termination {
    Termination(reason: .jetsam, code: nil,
                description: "\(Termination.memoryLimitJetsamPrefix): the app's memory went over \(profile.memoryLimitBytes / (1 << 20)) MiB in \(name)")
  }

  /// What an instruction-limit kill (a hung main thread) says.
  func instructionLimitTermination(in name: String, target: String) -> Termination {
    Termination(reason: .watchdog, code: "0x8badf00d",
                description: "main thread unresponsive: \(name) on \(target) ran past the limit of \(profile.instructionLimit) Lua instructions")
  }
}
