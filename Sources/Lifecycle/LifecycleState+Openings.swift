import JSON

/// A Handoff that launched a scene app: its activity's data is still arriving, and
/// `scene(_:continue:)` follows `handoffTransferDelay` after the scene became active.
public struct PendingHandoff: Equatable, Sendable {
  public var activityType: String
  /// When the scene became active (nil: not yet); the delay counts from here.
  public var activeSince: Int64?
}

/// A completion handler UIKit gave and does not wait for, and the callback it was given to.
public struct SoftCompletion: Equatable, Sendable {
  public let id: Int
  public let callback: Callback
}

/// What the fold keeps for notification responses, quick actions, universal links and Handoff
/// (docs/model.md §15). All of it dies with the process.
public struct OpeningsState: Equatable, Sendable {
  /// The app called `UNUserNotificationCenter:setDelegate()` in this process.
  public var notificationDelegateSet = false
  /// It did so before `didFinishLaunchingWithOptions` returned: a response that launched the app reaches it.
  public var notificationDelegateSetDuringLaunch = false
  /// `didFinishLaunchingWithOptions` has returned in this process (or had no handler).
  public var didFinishLaunchingReturned = false
  /// `willFinishLaunchingWithOptions` or `didFinishLaunchingWithOptions` returned `false` in this
  /// process: the quick action or activity in a sceneless app's launch options is not delivered.
  public var launchDeclined = false
  /// Completion handlers UIKit gives but does not wait for (`willPresent`, a `didReceive` in the
  /// foreground, quick actions): they keep nothing running and kill nothing.
  public var softCompletions: [SoftCompletion] = []
  public var pendingHandoff: PendingHandoff?

  public init() {}

  /// Whether the completion handler a callback gets is one UIKit does not wait for: every
  /// completion of this feature's callbacks, except a `didReceive` delivered in the background
  /// (a notification action that runs without opening the app), which must be called in time.
  public static func isSoftCompletion(_ cb: Callback, applicationState: ApplicationState) -> Bool {
    if cb == .didReceive { return applicationState != .background }
    return softCompletionCallbacks.contains(cb)
  }

  private static let softCompletionCallbacks: Set<Callback> = [.willPresent, .performActionForShortcutItem,
                                                               .scenePerformActionForShortcutItem]

  mutating func evolve(callback cb: Callback, handled: Bool, arguments: CallbackArguments,
                       applicationState: ApplicationState, at t: Int64) {
    if let completion = arguments.completion, Self.isSoftCompletion(cb, applicationState: applicationState) {
      softCompletions.append(SoftCompletion(id: completion, callback: cb))
    }
    if cb == .didFinishLaunchingWithOptions, !handled { didFinishLaunchingReturned = true }
    if cb == .willConnectTo, let type = arguments.payload?["options"]?["handoffUserActivityType"]?.stringValue {
      pendingHandoff = PendingHandoff(activityType: type)
    }
    if cb == .sceneDidBecomeActive, pendingHandoff?.activeSince == nil { pendingHandoff?.activeSince = t }
    if cb == .sceneContinueUserActivity || cb == .sceneDidFailToContinueUserActivity { pendingHandoff = nil }
  }

  mutating func evolve(returned name: String, value: JSONValue?) {
    let didFinish = Callback.didFinishLaunchingWithOptions.signature
    if name == didFinish { didFinishLaunchingReturned = true }
    if name == didFinish || name == Callback.willFinishLaunchingWithOptions.signature, value == .bool(false) {
      launchDeclined = true
    }
  }

  mutating func evolve(call: AppCall) {
    if call == .setNotificationDelegate {
      notificationDelegateSet = true
      if !didFinishLaunchingReturned { notificationDelegateSetDuringLaunch = true }
    }
    if case let .completion(id) = call { softCompletions.removeAll { $0.id == id } }
  }
}
