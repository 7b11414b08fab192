import JSON

/// Every UIKit callback lifesim models, keyed by the short name an app script
/// uses (docs/model.md §1), with the full Swift signature the log shows.
public enum Callback: String, CaseIterable, Sendable {
  // UIApplicationDelegate
  case willFinishLaunchingWithOptions, didFinishLaunchingWithOptions, configurationForConnecting
  case didDiscardSceneSessions, applicationWillResignActive, applicationDidEnterBackground
  case applicationWillEnterForeground, applicationDidBecomeActive, applicationWillTerminate
  case applicationDidReceiveMemoryWarning, applicationProtectedDataWillBecomeUnavailable
  case applicationProtectedDataDidBecomeAvailable, openURL
  case performFetchWithCompletionHandler, didReceiveRemoteNotification
  case applicationSignificantTimeChange
  case willContinueUserActivityWithType, continueUserActivity, didFailToContinueUserActivity, performActionForShortcutItem
  // UISceneDelegate
  case willConnectTo, sceneDidDisconnect, sceneWillEnterForeground, sceneDidBecomeActive
  case sceneWillResignActive, sceneDidEnterBackground, openURLContexts
  // Keys shared with the app delegate (`sharedKeys`): the scene's own method of the same name.
  case sceneWillContinueUserActivityWithType, sceneContinueUserActivity, sceneDidFailToContinueUserActivity
  case scenePerformActionForShortcutItem
  // UIViewController
  case `init`, loadView, viewDidLoad, viewWillAppear, viewIsAppearing, viewWillLayoutSubviews
  case viewDidLayoutSubviews, updateProperties, viewDidAppear, viewWillDisappear, viewDidDisappear
  case didReceiveMemoryWarning, willTransitionToTraitCollection, viewWillTransitionToSize
  case traitCollectionDidChange
  case restoreUserActivityState
  // UNUserNotificationCenterDelegate (the app's `NotificationDelegate` table)
  case willPresent, didReceive
  // Closures the app handed to UIKit (`sceneRequestErrorHandler`: a scene request's `errorHandler`)
  case expirationHandler, asyncAfter, sceneRequestErrorHandler
  // User actions (`act`): the key is the controller table's `actions`
  case userAction = "actions"
  // BGTaskScheduler and background URL sessions
  case launchHandler, handleEventsForBackgroundURLSession, didCompleteWithError, didFinishEvents
  // State restoration (docs/model.md §17): scene delegate, app delegate, controller
  case stateRestorationActivity, restoreInteractionStateWith
  case shouldSaveSecureApplicationState, shouldRestoreSecureApplicationState, shouldSaveApplicationState
  case shouldRestoreApplicationState, willEncodeRestorableStateWith, didDecodeRestorableStateWith
  case viewControllerWithRestorationIdentifierPath
  case encodeRestorableState, decodeRestorableState, applicationFinishedRestoringState

  /// Who receives it.
  public enum Receiver: Sendable { case appDelegate, sceneDelegate, viewController, closure, notificationDelegate, urlSessionDelegate }

  public var receiver: Receiver {
    switch self {
    case .willConnectTo, .sceneDidDisconnect, .sceneWillEnterForeground, .sceneDidBecomeActive,
         .sceneWillResignActive, .sceneDidEnterBackground, .openURLContexts, .sceneWillContinueUserActivityWithType,
         .sceneContinueUserActivity, .sceneDidFailToContinueUserActivity, .scenePerformActionForShortcutItem,
         .stateRestorationActivity, .restoreInteractionStateWith:
      return .sceneDelegate
    case .`init`, .loadView, .viewDidLoad, .viewWillAppear, .viewIsAppearing, .viewWillLayoutSubviews,
         .viewDidLayoutSubviews, .updateProperties, .viewDidAppear, .viewWillDisappear, .viewDidDisappear,
         .didReceiveMemoryWarning, .willTransitionToTraitCollection, .viewWillTransitionToSize,
         .traitCollectionDidChange, .restoreUserActivityState, .encodeRestorableState, .decodeRestorableState,
         .applicationFinishedRestoringState:
      return .viewController
    case .expirationHandler, .asyncAfter, .launchHandler, .sceneRequestErrorHandler:
      return .closure
    case .didCompleteWithError, .didFinishEvents:
      return .urlSessionDelegate
    case .willFinishLaunchingWithOptions, .didFinishLaunchingWithOptions, .configurationForConnecting,
         .didDiscardSceneSessions, .applicationWillResignActive, .applicationDidEnterBackground,
         .applicationWillEnterForeground, .applicationDidBecomeActive, .applicationWillTerminate,
         .applicationDidReceiveMemoryWarning, .applicationProtectedDataWillBecomeUnavailable,
         .applicationProtectedDataDidBecomeAvailable, .openURL, .performFetchWithCompletionHandler,
         .didReceiveRemoteNotification, .applicationSignificantTimeChange, .willContinueUserActivityWithType,
         .continueUserActivity, .didFailToContinueUserActivity, .performActionForShortcutItem,
         .handleEventsForBackgroundURLSession, .shouldSaveSecureApplicationState, .shouldRestoreSecureApplicationState,
         .shouldSaveApplicationState, .shouldRestoreApplicationState, .willEncodeRestorableStateWith,
         .didDecodeRestorableStateWith, .viewControllerWithRestorationIdentifierPath:
      return .appDelegate
    case .userAction:
      return .viewController
    case .willPresent, .didReceive:
      return .notificationDelegate
    }
  }

  /// The handler key an app script uses.
  public var key: String { Self.keysInCaseOrder[ordinal] }
  private static let keysInCaseOrder = allCases.map { sharedKeys[$0] ?? $0.rawValue }

  /// The callback's place in `allCases`, found without hashing (a `Callback` hashes its raw
  /// string): a case without a payload is stored as its number in declaration order, which is
  /// the order of `allCases`. `unsafeBitCast` traps if the enum ever outgrows one byte.
  package var ordinal: Int { Int(unsafeBitCast(self, to: UInt8.self)) }

  /// The full Swift signature shown in the trace and the log: made once per callback, since
  /// every callback event writes or reads it.
  public var signature: String { Self.signaturesInCaseOrder[ordinal] }
  private static let signaturesInCaseOrder = allCases.map(\.madeSignature)

  /// The signature: most follow from the case's name by one of three rules; the rest are spelled out.
  private var madeSignature: String {
    switch self {
    case .willFinishLaunchingWithOptions, .didFinishLaunchingWithOptions, .didDiscardSceneSessions,
         .performFetchWithCompletionHandler, .willContinueUserActivityWithType, .shouldSaveSecureApplicationState,
         .shouldRestoreSecureApplicationState, .shouldSaveApplicationState, .shouldRestoreApplicationState,
         .willEncodeRestorableStateWith, .didDecodeRestorableStateWith:
      return "application(_:\(rawValue):)"
    case .applicationWillResignActive, .applicationDidEnterBackground, .applicationWillEnterForeground,
         .applicationDidBecomeActive, .applicationWillTerminate, .applicationDidReceiveMemoryWarning,
         .applicationProtectedDataWillBecomeUnavailable, .applicationProtectedDataDidBecomeAvailable,
         .applicationSignificantTimeChange, .sceneDidDisconnect, .sceneWillEnterForeground, .sceneDidBecomeActive,
         .sceneWillResignActive, .sceneDidEnterBackground, .viewWillAppear, .viewIsAppearing, .viewDidAppear,
         .viewWillDisappear, .viewDidDisappear, .traitCollectionDidChange, .restoreUserActivityState, .launchHandler:
      return "\(rawValue)(_:)"
    case .loadView, .viewDidLoad, .viewWillLayoutSubviews, .viewDidLayoutSubviews, .updateProperties,
         .didReceiveMemoryWarning, .expirationHandler, .applicationFinishedRestoringState:
      return "\(rawValue)()"
    case .encodeRestorableState, .decodeRestorableState: return "\(rawValue)(with:)"
    case .configurationForConnecting, .openURL, .didReceiveRemoteNotification, .willConnectTo, .openURLContexts, .`init`,
         .willTransitionToTraitCollection, .viewWillTransitionToSize, .asyncAfter, .userAction, .continueUserActivity,
         .didFailToContinueUserActivity, .performActionForShortcutItem, .sceneWillContinueUserActivityWithType,
         .sceneContinueUserActivity, .sceneDidFailToContinueUserActivity, .scenePerformActionForShortcutItem,
         .willPresent, .didReceive, .handleEventsForBackgroundURLSession, .didCompleteWithError, .didFinishEvents,
         .stateRestorationActivity, .restoreInteractionStateWith, .viewControllerWithRestorationIdentifierPath,
         .sceneRequestErrorHandler:
      return Self.irregularSignatures[self] ?? rawValue
    }
  }

  /// The signatures no naming rule gives.
  private static let irregularSignatures: [Callback: String] = [
    .configurationForConnecting: "application(_:configurationForConnecting:options:)",
    .openURL: "application(_:open:options:)",
    .didReceiveRemoteNotification: "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)",
    .willConnectTo: "scene(_:willConnectTo:options:)",
    .openURLContexts: "scene(_:openURLContexts:)",
    .`init`: "init(coder:)",
    .willTransitionToTraitCollection: "willTransition(to:with:)",
    .viewWillTransitionToSize: "viewWillTransition(to:with:)",
    .asyncAfter: "DispatchQueue.main.asyncAfter(deadline:execute:)",
    .sceneRequestErrorHandler: "errorHandler(_:)",
    .userAction: "action(_:)",
    .continueUserActivity: "application(_:continue:restorationHandler:)",
    .didFailToContinueUserActivity: "application(_:didFailToContinueUserActivityWithType:error:)",
    .performActionForShortcutItem: "application(_:performActionFor:completionHandler:)",
    .sceneWillContinueUserActivityWithType: "scene(_:willContinueUserActivityWithType:)",
    .sceneContinueUserActivity: "scene(_:continue:)",
    .sceneDidFailToContinueUserActivity: "scene(_:didFailToContinueUserActivityWithType:error:)",
    .scenePerformActionForShortcutItem: "windowScene(_:performActionFor:completionHandler:)",
    .willPresent: "userNotificationCenter(_:willPresent:withCompletionHandler:)",
    .didReceive: "userNotificationCenter(_:didReceive:withCompletionHandler:)",
    .handleEventsForBackgroundURLSession: "application(_:handleEventsForBackgroundURLSession:completionHandler:)",
    .didCompleteWithError: "urlSession(_:task:didCompleteWithError:)",
    .didFinishEvents: "urlSessionDidFinishEvents(forBackgroundURLSession:)",
    .stateRestorationActivity: "stateRestorationActivity(for:)",
    .restoreInteractionStateWith: "scene(_:restoreInteractionStateWith:)",
    .viewControllerWithRestorationIdentifierPath: "application(_:viewControllerWithRestorationIdentifierPath:coder:)",
  ]

  private static let bySignature: [String: Callback] = {
    var map: [String: Callback] = [:]
    for c in Callback.allCases { map[c.signature] = c }
    return map
  }()

  /// The callback whose full signature is `signature`.
  public init?(signature: String) {
    guard let c = Callback.bySignature[signature] else { return nil }
    self = c
  }

  /// Keys valid in an `AppDelegate`, `SceneDelegate` or `controller` table.
  public static func keys(for receiver: Receiver) -> [String] {
    allCases.filter { $0.receiver == receiver }.map(\.key)
  }
}

extension Callback {
  /// Whether UIKit reads what the handler returns (a Bool from the launch methods): the driver
  /// hands the value back, `Simulator.deliver` returns it and the `returned` event records it.
  public var returnsValue: Bool {
    switch self {
    case .willFinishLaunchingWithOptions, .didFinishLaunchingWithOptions:
      return true
    // Restoration: the activity, the should-save/restore Bools, the path method's class name, and
    // for the two encode callbacks the coder the handler filled (docs/model.md §17).
    case .stateRestorationActivity, .shouldSaveSecureApplicationState, .shouldRestoreSecureApplicationState,
         .shouldSaveApplicationState, .shouldRestoreApplicationState, .willEncodeRestorableStateWith,
         .viewControllerWithRestorationIdentifierPath, .encodeRestorableState:
      return true
    case .configurationForConnecting, .didDiscardSceneSessions, .applicationWillResignActive,
         .applicationDidEnterBackground, .applicationWillEnterForeground, .applicationDidBecomeActive,
         .applicationWillTerminate, .applicationDidReceiveMemoryWarning, .applicationProtectedDataWillBecomeUnavailable,
         .applicationProtectedDataDidBecomeAvailable, .openURL, .performFetchWithCompletionHandler,
         .didReceiveRemoteNotification, .willConnectTo, .sceneDidDisconnect, .sceneWillEnterForeground,
         .sceneDidBecomeActive, .sceneWillResignActive, .sceneDidEnterBackground, .openURLContexts, .`init`, .loadView,
         .viewDidLoad, .viewWillAppear, .viewIsAppearing, .viewWillLayoutSubviews, .viewDidLayoutSubviews,
         .updateProperties, .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .didReceiveMemoryWarning,
         .willTransitionToTraitCollection, .viewWillTransitionToSize, .traitCollectionDidChange, .expirationHandler,
         .asyncAfter, .applicationSignificantTimeChange, .willContinueUserActivityWithType, .continueUserActivity,
         .didFailToContinueUserActivity, .performActionForShortcutItem, .sceneWillContinueUserActivityWithType,
         .sceneContinueUserActivity, .sceneDidFailToContinueUserActivity, .scenePerformActionForShortcutItem,
         .restoreUserActivityState, .willPresent, .didReceive, .userAction, .launchHandler,
         .handleEventsForBackgroundURLSession, .didCompleteWithError, .didFinishEvents, .restoreInteractionStateWith,
         .didDecodeRestorableStateWith, .decodeRestorableState, .applicationFinishedRestoringState,
         .sceneRequestErrorHandler:
      return false
    }
  }
}

/// What UIKit passes a callback besides its receiver, as recorded in the log and handed to the app.
public struct CallbackArguments: Equatable, Sendable {
  /// The URL a launch, `openURL` or `willConnectTo` carries.
  public var url: String?
  /// The id of the completion handler the app must call (nil: none, or the callback is not handled).
  public var completion: Int?
  /// What the appearance callbacks receive (nil for every other callback).
  public var animated: Bool?
  /// Any other UIKit argument (launch or connection options, an activity, an item, a response),
  /// as a JSON object whose keys are the Lua names the app reads; nil when there is none.
  public var payload: JSONValue?
  /// The scene a scene-delegate callback is delivered for (`Scene#2`); nil while the app has had
  /// one scene at a time (`LifecycleState.sceneNamedInEvents`), so one-scene logs keep their bytes.
  public var scene: String?

  public init(url: String? = nil, completion: Int? = nil, animated: Bool? = nil, payload: JSONValue? = nil, scene: String? = nil) {
    self.url = url; self.completion = completion; self.animated = animated; self.payload = payload; self.scene = scene
  }
}
