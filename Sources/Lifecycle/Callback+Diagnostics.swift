extension Callback {
  /// The app-delegate handlers UIKit never calls because the run uses scenes: those the
  /// delivery table (`canBeDelivered(on:)`) gives the same profile without scenes and takes
  /// away with them. Empty for a sceneless profile.
  public static func skippedForScenes(on profile: Profile) -> [Callback] {
    guard profile.scenes else { return [] }
    var sceneless = profile
    sceneless.scenes = false
    return allCases.filter {
      $0.receiver == .appDelegate && !$0.canBeDelivered(on: profile) && $0.canBeDelivered(on: sceneless)
    }
  }

  /// The app-delegate handlers the iOS 26 SDK deprecates (their pages end at 26.0): the
  /// foreground and active methods, URL opening, the user-activity family and quick actions.
  /// `applicationDidEnterBackground(_:)` still has no end on iOS.
  public var deprecatedInSDK26: Bool {
    switch self {
    case .applicationDidBecomeActive, .applicationWillResignActive, .applicationWillEnterForeground, .openURL,
         .willContinueUserActivityWithType, .continueUserActivity, .didFailToContinueUserActivity,
         .performActionForShortcutItem:
      return true
    default:
      return false
    }
  }

  /// What a scene app implements instead of this app-delegate handler (nil: not an app-delegate
  /// handler scenes replace).
  public var sceneReplacement: Callback? {
    switch self {
    case .applicationWillResignActive: return .sceneWillResignActive
    case .applicationDidEnterBackground: return .sceneDidEnterBackground
    case .applicationWillEnterForeground: return .sceneWillEnterForeground
    case .applicationDidBecomeActive: return .sceneDidBecomeActive
    case .openURL: return .openURLContexts
    case .willContinueUserActivityWithType: return .sceneWillContinueUserActivityWithType
    case .continueUserActivity: return .sceneContinueUserActivity
    case .didFailToContinueUserActivity: return .sceneDidFailToContinueUserActivity
    case .performActionForShortcutItem: return .scenePerformActionForShortcutItem
    case .shouldSaveSecureApplicationState, .shouldRestoreSecureApplicationState, .shouldSaveApplicationState,
         .shouldRestoreApplicationState, .willEncodeRestorableStateWith, .didDecodeRestorableStateWith,
         .viewControllerWithRestorationIdentifierPath:
      return .stateRestorationActivity
    default:
      return nil
    }
  }
}
