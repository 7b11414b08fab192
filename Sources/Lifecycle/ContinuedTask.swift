import JSON

// BGContinuedProcessingTask (iOS 26): work the user started that goes on in the background
// with a Live Activity showing its progress (docs/model.md §16, "Continued processing tasks").

/// `strategy` of a continued request (`BGContinuedProcessingTaskRequest.SubmissionStrategy`).
public enum ContinuedStrategy: String, Sendable, CaseIterable {
  /// Waits behind the running continued task (the default).
  case queue
  /// `false, "immediateRunIneligible"` when it cannot start at once.
  case fail
}

/// What a continued request adds to a `BGTaskRequest`: its Live Activity's text and its strategy.
public struct ContinuedRequest: Equatable, Sendable {
  public var title: String
  public var subtitle: String
  public var strategy: ContinuedStrategy

  public init(title: String, subtitle: String, strategy: ContinuedStrategy = .queue) {
    self.title = title; self.subtitle = subtitle; self.strategy = strategy
  }
}

/// Why the system called a continued task's expiration handler: every expiry has one.
public enum ContinuedExpiryCause: String, Sendable, CaseIterable {
  /// It reported no progress for `continuedNoProgressLimit`.
  case noProgress
  /// The user cancelled it from its Live Activity (`cancel_task(id)`).
  case userCancelled
}

/// A running continued task's progress, as its Live Activity shows it.
public struct ContinuedProgress: Equatable, Sendable {
  public var identifier: String
  public var done: Int64
  public var total: Int64
  /// When it last reported more done (or started): the no-progress expiry counts from here.
  public var progressedAt: Int64
}

/// The continued tasks' own state beside `BackgroundWorkState`'s requests and running tasks.
public struct ContinuedTasksState: Equatable, Sendable {
  /// One entry for each running continued task, in start order.
  public var progress: [ContinuedProgress] = []

  public init() {}

  public func progress(of identifier: String) -> ContinuedProgress? { progress.first { $0.identifier == identifier } }

  mutating func started(_ identifier: String, at t: Int64) {
    progress.removeAll { $0.identifier == identifier }
    progress.append(ContinuedProgress(identifier: identifier, done: 0, total: 0, progressedAt: t))
  }

  /// `task:updateProgress(done, total)`: more done restarts the no-progress clock.
  mutating func updated(_ identifier: String, done: Int64, total: Int64, at t: Int64) {
    guard let i = progress.firstIndex(where: { $0.identifier == identifier }) else { return }
    if done > progress[i].done { progress[i].progressedAt = t }
    progress[i].done = done
    progress[i].total = total
  }

  mutating func ended(_ identifier: String) { progress.removeAll { $0.identifier == identifier } }
}

/// `BGTaskSchedulerPermittedIdentifiers` with wildcards: an entry ending in `.*` permits every
/// identifier that starts with what comes before the `*` and goes on after it
/// (`com.example.export.*` permits `com.example.export.1`).
public enum BGTaskIdentifierPattern {
  public static let wildcardSuffix = ".*"

  public static func isWildcard(_ entry: String) -> Bool { entry.hasSuffix(wildcardSuffix) }

  /// Whether a wildcard entry of `declared` permits `identifier` (an exact entry does not count).
  public static func wildcardPermits(_ declared: [String], _ identifier: String) -> Bool {
    declared.contains { entry in
      guard isWildcard(entry) else { return false }
      let prefix = entry.dropLast(1)
      return identifier.count > prefix.count && identifier.hasPrefix(prefix)
    }
  }

  /// Why an entry is not a valid identifier pattern (a `*` anywhere but after a final `.`), or nil.
  public static func problem(_ entry: String) -> String? {
    guard entry.contains("*") else { return nil }
    let prefix = entry.dropLast(wildcardSuffix.count)
    guard isWildcard(entry), !prefix.isEmpty, !prefix.contains("*") else {
      return "a wildcard must be a prefix followed by \".*\" (\"com.example.export.*\")"
    }
    return nil
  }
}

extension BackgroundWorkState {
  /// The running continued task (at most one runs at a time: the model's choice).
  public var runningContinued: RunningBGTask? { running.first { $0.kind == .continued } }

  /// The continued tasks a user can cancel now: running and not yet expired.
  public var cancellableContinued: [String] {
    running.filter { $0.kind == .continued && $0.expiredAt == nil }.map(\.identifier)
  }

  /// The next queued continued request.
  var queuedContinued: PendingBGTaskRequest? { pending.first { $0.request.kind == .continued } }
}

extension AppCall {
  /// The largest count `updateProgress` takes (a Lua number keeps every whole number up to it).
  public static let progressCountMax: Int64 = 1 << 53
}
