import JSON

/// The kind of a BGTaskScheduler request: `BGAppRefreshTaskRequest`, `BGProcessingTaskRequest`
/// or (iOS 26) `BGContinuedProcessingTaskRequest`.
public enum BGTaskKind: String, Sendable, CaseIterable {
  case refresh, processing, continued

  /// The BGTask subclass the launch handler receives, as crash reports name it.
  public var className: String {
    switch self {
    case .refresh: return "BGAppRefreshTask"
    case .processing: return "BGProcessingTask"
    case .continued: return "BGContinuedProcessingTask"
    }
  }
}

/// What `BGTaskScheduler:submit{…}` asks for.
public struct BGTaskRequest: Equatable, Sendable {
  public var identifier: String
  public var kind: BGTaskKind
  /// Virtual time after the submit before which the system does not run it (0: due at once).
  public var earliestBeginUs: Int64
  /// Processing only: run only while the device is on external power (`power(true)`).
  public var requiresExternalPower: Bool
  /// Processing only: recorded; lifesim models no network, so it never holds a request back.
  public var requiresNetwork: Bool
  /// Continued only: the Live Activity's title and subtitle, and the strategy.
  public var continued: ContinuedRequest?

  public init(identifier: String, kind: BGTaskKind, earliestBeginUs: Int64 = 0, requiresExternalPower: Bool = false,
              requiresNetwork: Bool = false, continued: ContinuedRequest? = nil) {
    self.identifier = identifier; self.kind = kind; self.earliestBeginUs = earliestBeginUs
    self.requiresExternalPower = requiresExternalPower; self.requiresNetwork = requiresNetwork
    self.continued = continued
  }
}

/// A result an app call carries back to the driver: its position among the cases.
public protocol AppCallReply: CaseIterable, Equatable where AllCases == [Self] {}

extension AppCallReply {
  /// The reply: the result's position in `allCases`.
  public var reply: Int { Self.allCases.firstIndex(of: self) ?? 0 }

  /// The result a reply stands for.
  public init?(reply: Int) {
    guard Self.allCases.indices.contains(reply) else { return nil }
    self = Self.allCases[reply]
  }
}

/// What `BGTaskScheduler:register(id, fn)` did, as the log records it.
public enum BGTaskRegisterResult: String, Sendable, AppCallReply {
  /// The handler is registered: the call returns true.
  case registered
  /// The identifier is not in `bgTaskIdentifiers`: the call returns false (S112).
  case undeclared
  /// After `didFinishLaunching` returned: the app crashes inside the call (S112, D2).
  case late
  /// The identifier was registered already in this process: the app crashes inside the call.
  case duplicate
}

/// What `BGTaskScheduler:submit{…}` did, as the log records it (`BGTaskScheduler.Error.Code`).
public enum BGTaskSubmitResult: String, Sendable, AppCallReply {
  /// The request is pending (it replaced any pending request with its identifier): `true`.
  case pending
  /// `false, "notPermitted"`: the identifier is not declared (a continued request: or not submitted from the foreground).
  case notPermitted
  /// `false, "tooManyPendingTaskRequests"`: 1 refresh or 10 processing requests are pending.
  case tooManyPendingTaskRequests
  /// `false, "unavailable"`: Background App Refresh is off (knob `backgroundRefreshStatus`).
  case unavailable
  /// A declared identifier with no launch handler in this process: the app crashes in the call.
  case noLaunchHandler
  /// `false, "immediateRunIneligible"`: a continued request with strategy `fail` cannot start
  /// at once (S136).
  case immediateRunIneligible
}

/// `Info.plist`'s `UIBackgroundRefreshStatus` as the user set it (knob `backgroundRefreshStatus`).
public enum BackgroundRefreshStatus: String, Sendable, CaseIterable { case available, denied, restricted }

/// A request the system holds until `bg_task(id)` runs it. Survives every termination.
public struct PendingBGTaskRequest: Equatable, Sendable {
  public var request: BGTaskRequest
  /// When it may run (the submit's time plus `earliestBegin`).
  public var dueAt: Int64
}

/// A BGTask whose launch handler has run and which has not been completed.
public struct RunningBGTask: Equatable, Sendable {
  public var identifier: String
  public var kind: BGTaskKind
  public var startedAt: Int64
  /// When its expiration handler was called (nil: not yet expired).
  public var expiredAt: Int64?
}

/// A transfer in a background URL session (`background_transfer{session=, seconds=}`): the
/// system runs it outside the process, so it survives terminations but not a force quit.
public struct BackgroundTransfer: Equatable, Sendable {
  public var id: Int
  public var session: String
  public var startedAt: Int64
  /// How long it takes before `transfer_done(session)` can deliver it.
  public var durationUs: Int64
  /// A force quit cancelled it: the app hears of it (error −999) when the user next opens it.
  public var cancelled = false
}

/// The labels BGTask closures carry as callback targets: `BGTaskScheduler#<id>` for the
/// launch handler, `BGTask#<id>` for the task's expiration handler.
public enum BGTaskLabel {
  public static let launchHandlerPrefix = "BGTaskScheduler#"
  public static let taskPrefix = "BGTask#"

  public static func launchHandler(_ identifier: String) -> String { launchHandlerPrefix + identifier }
  public static func task(_ identifier: String) -> String { taskPrefix + identifier }

  /// The task identifier of a `BGTaskScheduler#…` or `BGTask#…` label; nil for any other label.
  public static func identifier(of label: String) -> String? {
    for prefix in [launchHandlerPrefix, taskPrefix] where label.hasPrefix(prefix) {
      return String(label.dropFirst(prefix.count))
    }
    return nil
  }
}

/// BGTaskScheduler and background URL sessions, as the fold sees them (docs/model.md §16).
public struct BackgroundWorkState: Equatable, Sendable {
  // The process's: gone with it.
  /// Identifiers whose launch handler this process registered.
  public var registered: [String] = []
  /// `didFinishLaunching` has returned: no more launch handlers can be registered.
  public var launchFinished = false
  public var running: [RunningBGTask] = []
  // The system's: they outlive the process.
  public var pending: [PendingBGTaskRequest] = []
  public var transfers: BackgroundTransfers = []
  public var transfersStarted = 0
  /// The device is on external power (`power(on)`).
  public var externalPower = false
  /// Running continued tasks' progress (their requests and tasks are in `pending` and `running`).
  public var continued = ContinuedTasksState()

  public init() {}

  /// A running BGTask keeps the process from being suspended.
  public var keepsProcessRunning: Bool { !running.isEmpty }

  public func pendingRequest(_ identifier: String) -> PendingBGTaskRequest? {
    pending.first { $0.request.identifier == identifier }
  }

  /// The transfers of `session` that `transfer_done` delivers at `now`: not cancelled, and run
  /// for at least their duration.
  public func finishedTransfers(_ session: String, at now: Int64) -> [BackgroundTransfer] {
    transfers.inSession(session).filter { !$0.cancelled && now - $0.startedAt >= $0.durationUs }
  }

  /// Sessions with a transfer `transfer_done` can deliver at `now`, in order of first transfer
  /// (through the index by session: explore asks on every step).
  public func sessionsWithFinishedTransfers(at now: Int64) -> [String] {
    transfers.sessions.filter { !finishedTransfers($0, at: now).isEmpty }
  }

  /// What dies with the process: registrations and running tasks, and queued continued requests
  /// (their Live Activities go with the app). Other requests and transfers stay.
  mutating func resetProcess() {
    registered = []
    launchFinished = false
    running = []
    continued = ContinuedTasksState()
    pending.removeAll { $0.request.kind == .continued }
  }
}
