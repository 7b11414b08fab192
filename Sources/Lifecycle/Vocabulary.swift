/// `UIApplication.State`, plus the process states an iOS engineer names with it.
public enum AppState: String, Sendable, CaseIterable {
  case notRunning = "not_running", inactive, active, background, suspended
}

/// `UIApplication.State` proper: only meaningful while the process runs.
public enum ApplicationState: String, Sendable {
  case inactive, active, background
}

/// The process as the system sees it.
public enum ProcessState: String, Sendable {
  case notRunning = "not_running", prewarmed, running, suspended
}

/// `UIScene.ActivationState`.
public enum SceneActivation: String, Sendable {
  case unattached, foregroundInactive, foregroundActive, background

  /// On screen: foreground active or inactive.
  public var isForeground: Bool { self == .foregroundActive || self == .foregroundInactive }

  /// The word `expect_state(word, n)` names it by: active, inactive, background, unattached.
  public var luaName: String {
    switch self {
    case .foregroundActive: return "active"
    case .foregroundInactive: return "inactive"
    case .background, .unattached: return rawValue
    }
  }

  /// The state `expect_state(word, n)` names.
  public init?(luaName: String) {
    guard let match = [Self.foregroundActive, .foregroundInactive, .background, .unattached].first(where: { $0.luaName == luaName }) else {
      return nil
    }
    self = match
  }
}

/// Apple's appearance state diagram for a view controller (S21).
public enum Appearance: String, Sendable {
  case disappeared, appearing, appeared, disappearing
}

/// `UIModalPresentationStyle`, the styles lifesim models.
public enum PresentationStyle: String, Sendable, CaseIterable {
  case fullScreen, pageSheet, formSheet, overFullScreen

  /// Whether the presenter's view leaves the window (and gets disappear callbacks).
  /// `overFullScreen` covers the screen but leaves the views beneath it in place.
  public var removesPresenter: Bool {
    switch self {
    case .fullScreen: return true
    case .pageSheet, .formSheet, .overFullScreen: return false
    }
  }

  /// Whether the user can swipe the presentation down (`swipe_down`): sheets only.
  public var isSheet: Bool {
    switch self {
    case .pageSheet, .formSheet: return true
    case .fullScreen, .overFullScreen: return false
    }
  }
}

/// What takes the app to inactive without leaving the foreground.
public enum Interruption: String, Sendable, CaseIterable {
  case call, alert, notificationCenter = "notification_center", controlCenter = "control_center"
}

/// How an interruption ends.
public enum InterruptionEnd: String, Sendable, CaseIterable {
  case declined, answered, dismissed
}

/// The events that launch or wake an app in the background.
public enum BackgroundEvent: String, Sendable, CaseIterable {
  case fetch, push

  public var callback: Callback {
    self == .fetch ? .performFetchWithCompletionHandler : .didReceiveRemoteNotification
  }
}

public enum Orientation: String, Sendable, CaseIterable { case portrait, landscape }

/// Why the process ended, in MetricKit's vocabulary where it has one.
public enum TerminationReason: String, Sendable, CaseIterable {
  case watchdog, backgroundTaskExpired = "background_task_expired", jetsam, crash, user
  /// 0xdead10cc: suspended while holding a file lock in a shared container (MetricKit's suspended-with-locked-file exit).
  case suspendedWithLockedFile = "suspended_with_locked_file"
  /// The device restarted (`reboot()`): not a fault.
  case reboot
}

/// How the root of the window is built (`app { container = … }`).
public enum Container: String, Sendable { case none, navigation, tabs }

/// What the app script declares about its UI (`app { … }`).
public struct AppLayout: Equatable, Sendable {
  public var name: String
  /// Root view-controller classes: one, or one per tab.
  public var roots: [String]
  public var container: Container
  /// With tabs: whether each tab is a navigation controller.
  public var tabsHaveNavigation: Bool
  /// Info.plist's `BGTaskSchedulerPermittedIdentifiers` (`app { bgTaskIdentifiers = { … } }`).
  public var bgTaskIdentifiers: [String]
  /// The deployment target (`app { minimumIOS = N }`): the oldest iOS the app supports. It gates
  /// diagnostics only (below 13 an app rightly keeps the app delegate's life-cycle methods).
  public var minimumIOS: Int
  /// The SDK the app is built with (`app { sdk = 27 }`), one of `IOSRelease.versions`; nil: not declared.
  public var sdk: Int?
  /// Info.plist's `UIApplicationSupportsMultipleScenes` (`app { multipleScenes = true }`).
  public var multipleScenes = false
  /// Info.plist's `UIApplicationSceneManifest` (`app { sceneManifest = … }`); nil: not declared,
  /// the scenario's `scenes` decides.
  public var sceneManifest: SceneManifest?
  /// Whether the app delegate implements `configurationForConnecting` once the app's top level has run.
  public var hasConfigurationMethod = false

  /// The declared manifest beside the app delegate's method, or nil when no manifest is declared.
  public var sceneManifestShape: SceneManifestShape? {
    sceneManifest.map { SceneManifestShape(manifest: $0, hasConfigurationMethod: hasConfigurationMethod) }
  }

  public init(name: String = "App", roots: [String] = ["ViewController"], container: Container = .none,
              tabsHaveNavigation: Bool = false, bgTaskIdentifiers: [String] = [], minimumIOS: Int = 13, sdk: Int? = nil) {
    self.name = name; self.roots = roots; self.container = container; self.tabsHaveNavigation = tabsHaveNavigation
    self.bgTaskIdentifiers = bgTaskIdentifiers; self.minimumIOS = minimumIOS; self.sdk = sdk
  }
}

/// Virtual time helpers: the clock counts integer microseconds.
public enum VirtualTime {
  public static let microsecondsPerSecond: Int64 = 1_000_000
  /// The latest time the clock may reach, µs: the latest a log can hold (EventStore's
  /// `LogLimits.timeMaxUs`, which `LifecycleLogTests` holds equal to it; the model reads no log).
  public static let latestUs: Int64 = 999_999_999_999_999_999

  /// Seconds (as a scenario writes them) to µs, rounded to the nearest µs.
  public static func microseconds(seconds: Double) -> Int64 {
    Int64((seconds * 1_000_000).rounded())
  }

  /// `12.345678` style: seconds with 6 decimals, for descriptions.
  public static func format(_ us: Int64) -> String {
    let sign = us < 0 ? "-" : ""
    let m = us.magnitude
    let frac = String(m % 1_000_000)
    return "\(sign)\(m / 1_000_000).\(String(repeating: "0", count: 6 - frac.count))\(frac)"
  }

  /// `5.00` style, as crash reports print allowances.
  public static func formatSeconds2(_ us: Int64) -> String {
    let hundredths = (us + 5_000) / 10_000
    let frac = String(hundredths % 100)
    return "\(hundredths / 100).\(frac.count == 1 ? "0" + frac : frac)"
  }
}

/// The notifications the model posts, which `observe` accepts (UIKit's Swift spellings).
public enum NotificationName {
  public static let all = [
    "UIApplication.didBecomeActiveNotification", "UIApplication.didEnterBackgroundNotification",
    "UIApplication.didFinishLaunchingNotification", "UIApplication.didReceiveMemoryWarningNotification",
    "UIApplication.protectedDataDidBecomeAvailableNotification",
    "UIApplication.protectedDataWillBecomeUnavailableNotification",
    "UIApplication.willEnterForegroundNotification", "UIApplication.willResignActiveNotification",
    "UIApplication.willTerminateNotification",
    "UIScene.didActivateNotification", "UIScene.didDisconnectNotification", "UIScene.didEnterBackgroundNotification",
    "UIScene.willConnectNotification", "UIScene.willDeactivateNotification", "UIScene.willEnterForegroundNotification",
    "UIApplication.significantTimeChangeNotification",
  ]
}
