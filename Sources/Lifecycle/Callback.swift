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
  // Closures the app handed to UIKit
  case expirationHandler, asyncAfter
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
    case .expirationHandler, .asyncAfter, .launchHandler:
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
  public var key: String { Self.sharedKeys[self] ?? rawValue }

  /// The full Swift signature shown in the trace and the log.
  public var signature: String {
    switch self {
    case .willFinishLaunchingWithOptions: return "application(_:willFinishLaunchingWithOptions:)"
    case .didFinishLaunchingWithOptions: return "application(_:didFinishLaunchingWithOptions:)"
    case .configurationForConnecting: return "application(_:configurationForConnecting:options:)"
    case .didDiscardSceneSessions: return "application(_:didDiscardSceneSessions:)"
    case .applicationWillResignActive: return "applicationWillResignActive(_:)"
    case .applicationDidEnterBackground: return "applicationDidEnterBackground(_:)"
    case .applicationWillEnterForeground: return "applicationWillEnterForeground(_:)"
    case .applicationDidBecomeActive: return "applicationDidBecomeActive(_:)"
    case .applicationWillTerminate: return "applicationWillTerminate(_:)"
    case .applicationDidReceiveMemoryWarning: return "applicationDidReceiveMemoryWarning(_:)"
    case .applicationProtectedDataWillBecomeUnavailable: return "applicationProtectedDataWillBecomeUnavailable(_:)"
    case .applicationProtectedDataDidBecomeAvailable: return "applicationProtectedDataDidBecomeAvailable(_:)"
    case .openURL: return "application(_:open:options:)"
    case .performFetchWithCompletionHandler: return "application(_:performFetchWithCompletionHandler:)"
    case .didReceiveRemoteNotification: return "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"
    case .applicationSignificantTimeChange: return "applicationSignificantTimeChange(_:)"
    case .willConnectTo: return "scene(_:willConnectTo:options:)"
    case .sceneDidDisconnect: return "sceneDidDisconnect(_:)"
    case .sceneWillEnterForeground: return "sceneWillEnterForeground(_:)"
    case .sceneDidBecomeActive: return "sceneDidBecomeActive(_:)"
    case .sceneWillResignActive: return "sceneWillResignActive(_:)"
    case .sceneDidEnterBackground: return "sceneDidEnterBackground(_:)"
    case .openURLContexts: return "scene(_:openURLContexts:)"
    case .`init`: return "init(coder:)"
    case .loadView: return "loadView()"
    case .viewDidLoad: return "viewDidLoad()"
    case .viewWillAppear: return "viewWillAppear(_:)"
    case .viewIsAppearing: return "viewIsAppearing(_:)"
    case .viewWillLayoutSubviews: return "viewWillLayoutSubviews()"
    case .viewDidLayoutSubviews: return "viewDidLayoutSubviews()"
    case .updateProperties: return "updateProperties()"
    case .viewDidAppear: return "viewDidAppear(_:)"
    case .viewWillDisappear: return "viewWillDisappear(_:)"
    case .viewDidDisappear: return "viewDidDisappear(_:)"
    case .didReceiveMemoryWarning: return "didReceiveMemoryWarning()"
    case .willTransitionToTraitCollection: return "willTransition(to:with:)"
    case .viewWillTransitionToSize: return "viewWillTransition(to:with:)"
    case .traitCollectionDidChange: return "traitCollectionDidChange(_:)"
    case .expirationHandler: return "expirationHandler()"
    case .asyncAfter: return "DispatchQueue.main.asyncAfter(deadline:execute:)"
    case .userAction: return "action(_:)"
    case .willContinueUserActivityWithType: return "application(_:willContinueUserActivityWithType:)"
    case .continueUserActivity: return "application(_:continue:restorationHandler:)"
    case .didFailToContinueUserActivity: return "application(_:didFailToContinueUserActivityWithType:error:)"
    case .performActionForShortcutItem: return "application(_:performActionFor:completionHandler:)"
    case .sceneWillContinueUserActivityWithType: return "scene(_:willContinueUserActivityWithType:)"
    case .sceneContinueUserActivity: return "scene(_:continue:)"
    case .sceneDidFailToContinueUserActivity: return "scene(_:didFailToContinueUserActivityWithType:error:)"
    case .scenePerformActionForShortcutItem: return "windowScene(_:performActionFor:completionHandler:)"
    case .restoreUserActivityState: return "restoreUserActivityState(_:)"
    case .willPresent: return "userNotificationCenter(_:willPresent:withCompletionHandler:)"
    case .didReceive: return "userNotificationCenter(_:didReceive:withCompletionHandler:)"
    case .launchHandler: return "launchHandler(_:)"
    case .handleEventsForBackgroundURLSession: return "application(_:handleEventsForBackgroundURLSession:completionHandler:)"
    case .didCompleteWithError: return "urlSession(_:task:didCompleteWithError:)"
    case .didFinishEvents: return "urlSessionDidFinishEvents(forBackgroundURLSession:)"
    case .stateRestorationActivity: return "stateRestorationActivity(for:)"
    case .restoreInteractionStateWith: return "scene(_:restoreInteractionStateWith:)"
    case .shouldSaveSecureApplicationState: return "application(_:shouldSaveSecureApplicationState:)"
    case .shouldRestoreSecureApplicationState: return "application(_:shouldRestoreSecureApplicationState:)"
    case .shouldSaveApplicationState: return "application(_:shouldSaveApplicationState:)"
    case .shouldRestoreApplicationState: return "application(_:shouldRestoreApplicationState:)"
    case .willEncodeRestorableStateWith: return "application(_:willEncodeRestorableStateWith:)"
    case .didDecodeRestorableStateWith: return "application(_:didDecodeRestorableStateWith:)"
    case .viewControllerWithRestorationIdentifierPath: return "application(_:viewControllerWithRestorationIdentifierPath:coder:)"
    case .encodeRestorableState: return "encodeRestorableState(with:)"
    case .decodeRestorableState: return "decodeRestorableState(with:)"
    case .applicationFinishedRestoringState: return "applicationFinishedRestoringState()"
    }
  }

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
         .didDecodeRestorableStateWith, .decodeRestorableState, .applicationFinishedRestoringState:
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

  public init(url: String? = nil, completion: Int? = nil, animated: Bool? = nil, payload: JSONValue? = nil) {
    self.url = url; self.completion = completion; self.animated = animated; self.payload = payload
  }
}
