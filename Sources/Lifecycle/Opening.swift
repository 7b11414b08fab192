import JSON

/// What opens the app in the verb being performed — a notification response, a quick action,
/// a user activity (universal link, Handoff) — and how far it has reached the app. It lives only
/// while that verb runs (like `Simulator.launching`); the events record everything it caused.
struct Opening {
  enum Kind: Equatable {
    case notificationResponse(id: String, action: String)
    case shortcutItem(type: String)
    /// `webpageURL` for a universal link; nil for Handoff.
    case userActivity(type: String, webpageURL: String?)
  }

  /// The action of a plain tap on a notification (UNNotificationDefaultActionIdentifier).
  static let defaultAction = "default"
  /// The activity type of a universal link.
  static let browsingWeb = "NSUserActivityTypeBrowsingWeb"

  let kind: Kind
  /// The process was not running (or only prewarmed) when the verb began.
  let coldLaunch: Bool
  /// It went to willFinish/didFinish in the launch options (sceneless apps).
  var inLaunchOptions = false
  /// It went to `scene(_:willConnectTo:options:)` in the connection options.
  var inConnectionOptions = false
  /// The delegate method (or the decision not to call it) is done.
  var delivered = false

  init(_ kind: Kind, coldLaunch: Bool) { self.kind = kind; self.coldLaunch = coldLaunch }

  /// The activity as the app reads it: `{activityType=, webpageURL=}`.
  static func activity(type: String, webpageURL: String?) -> JSONValue {
    .object([("activityType", .string(type))] + (webpageURL.map { [("webpageURL", JSONValue.string($0))] } ?? []))
  }

  /// The launch options a sceneless app's willFinish/didFinish receive (besides `url`).
  var launchOptions: JSONValue {
    switch kind {
    case let .notificationResponse(id, _): return .object([("remoteNotification", .object([("id", .string(id))]))])
    case let .shortcutItem(type): return .object([("shortcutItem", .object([("type", .string(type))]))])
    case let .userActivity(type, url): return .object([("userActivityDictionary", Self.activity(type: type, webpageURL: url))])
    }
  }

  /// The connection options `willConnectTo` receives (besides `url`); nil when the knob keeps a
  /// notification response out of them.
  func connectionOptions(_ profile: Profile) -> JSONValue? {
    switch kind {
    case let .notificationResponse(id, action):
      guard profile.coldNotificationResponse != .delegateOnly else { return nil }
      return .object([("notificationResponse", .object([("action", .string(action)), ("id", .string(id))]))])
    case let .shortcutItem(type): return .object([("shortcutItem", .object([("type", .string(type))]))])
    case let .userActivity(type, nil): return .object([("handoffUserActivityType", .string(type))])
    case let .userActivity(type, url?):
      return .object([("userActivities", .array([Self.activity(type: type, webpageURL: url)]))])
    }
  }

  /// Where its delegate method falls when the app comes to the foreground.
  func placement(_ profile: Profile) -> Profile.OpeningPlacement {
    switch kind {
    case .notificationResponse: return profile.notificationResponsePlacement
    case .shortcutItem: return profile.quickActionPlacement
    case .userActivity: return .beforeDidBecomeActive
    }
  }
}

extension Profile {
  /// A notification tap that launches a scene app: where the response goes (docs/model.md §15).
  public enum ColdNotificationResponse: String, Sendable, CaseIterable {
    /// `options.notificationResponse` and then `didReceive` (default).
    case both
    case connectionOptionsOnly, delegateOnly
  }

  /// Where a response or quick action falls against the did-become-active callback.
  public enum OpeningPlacement: String, Sendable, CaseIterable { case beforeDidBecomeActive, afterDidBecomeActive }
}

extension Callback {
  /// Scene-delegate methods whose handler key is the app delegate's (an app script writes
  /// `SceneDelegate.continueUserActivity`); `expect_calls` matches a bare shared key on either.
  static let sharedKeys: [Callback: String] = [
    .sceneWillContinueUserActivityWithType: Callback.willContinueUserActivityWithType.rawValue,
    .sceneContinueUserActivity: Callback.continueUserActivity.rawValue,
    .sceneDidFailToContinueUserActivity: Callback.didFailToContinueUserActivity.rawValue,
    .scenePerformActionForShortcutItem: Callback.performActionForShortcutItem.rawValue,
  ]

  /// The callback of `receiver` whose handler key is `key` (a shared key names two).
  static func named(_ key: String, receiver: Receiver) -> Callback? {
    allCases.first { $0.key == key && $0.receiver == receiver }
  }
}

extension ArgumentDomain {
  /// Candidates for the verbs whose string the app chooses (explore and the invariant tests draw these).
  static let sampleWords: [StringDomain: [String]] = [
    .notificationIDs: ["message-1"],
    .notificationActions: ["archive"],
    .shortcutTypes: ["compose"],
    .activityTypes: ["com.example.notes.editing"],
  ]
}
