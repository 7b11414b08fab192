extension Callback {
  /// Whether UIKit can ever call this callback on `profile`: its iOS version, whether the app
  /// uses scenes, and the knobs that add or remove a callback. A scene delegate's method never
  /// reaches a sceneless app, the app delegate's life-cycle methods never reach a scene app,
  /// `viewIsAppearing` needs iOS 13, `updateProperties` iOS 26, BGTaskScheduler iOS 13. The
  /// rules are the simulator's (`Simulator+Lifecycle`, `+Restoration`, `+ViewControllers`,
  /// `+BGTasks`); the switch names every callback, so a new one must be decided here. A callback
  /// that app code can bring about (a restoration handler's `restoreUserActivityState`) counts
  /// as deliverable.
  public func canBeDelivered(on profile: Profile) -> Bool {
    let legacyRestoration = !profile.scenes || profile.legacyRestorationInSceneApps
    switch self {
    case .configurationForConnecting, .didDiscardSceneSessions, .willConnectTo, .sceneDidDisconnect,
         .sceneWillEnterForeground, .sceneDidBecomeActive, .sceneWillResignActive, .sceneDidEnterBackground,
         .openURLContexts, .sceneWillContinueUserActivityWithType, .sceneContinueUserActivity,
         .sceneDidFailToContinueUserActivity, .scenePerformActionForShortcutItem, .stateRestorationActivity:
      return profile.scenes
    case .restoreInteractionStateWith:
      return profile.scenes && profile.ios >= profile.restoreInteractionMinIOS
    case .applicationWillResignActive, .applicationDidEnterBackground, .applicationWillEnterForeground,
         .applicationDidBecomeActive, .openURL, .willContinueUserActivityWithType, .continueUserActivity,
         .didFailToContinueUserActivity, .performActionForShortcutItem:
      return !profile.scenes
    case .viewIsAppearing: return profile.viewIsAppearing
    case .updateProperties: return profile.updateProperties
    case .launchHandler: return profile.bgTaskScheduler
    // A new window's request fails only where the app cannot have a second scene (S-multi).
    case .sceneRequestErrorHandler: return IOSRelease.hasScenes(profile.ios) && !(profile.device == .ipad && profile.scenes && profile.multipleScenes)
    case .shouldSaveSecureApplicationState, .shouldRestoreSecureApplicationState:
      return legacyRestoration && profile.ios >= IOSRelease.firstWithSecureRestoration
    case .shouldSaveApplicationState, .shouldRestoreApplicationState, .willEncodeRestorableStateWith,
         .didDecodeRestorableStateWith, .viewControllerWithRestorationIdentifierPath, .encodeRestorableState,
         .decodeRestorableState, .applicationFinishedRestoringState:
      return legacyRestoration
    case .willFinishLaunchingWithOptions, .didFinishLaunchingWithOptions, .applicationWillTerminate,
         .applicationDidReceiveMemoryWarning, .applicationProtectedDataWillBecomeUnavailable,
         .applicationProtectedDataDidBecomeAvailable, .performFetchWithCompletionHandler,
         .didReceiveRemoteNotification, .applicationSignificantTimeChange, .`init`, .loadView, .viewDidLoad,
         .viewWillAppear, .viewWillLayoutSubviews, .viewDidLayoutSubviews, .viewDidAppear, .viewWillDisappear,
         .viewDidDisappear, .didReceiveMemoryWarning, .willTransitionToTraitCollection, .viewWillTransitionToSize,
         .traitCollectionDidChange, .restoreUserActivityState, .willPresent, .didReceive, .expirationHandler,
         .asyncAfter, .userAction, .handleEventsForBackgroundURLSession, .didCompleteWithError, .didFinishEvents:
      return true
    }
  }

  /// Every callback UIKit can ever call on `profile`, in declaration order (`canBeDelivered(on:)`).
  public static func deliverable(on profile: Profile) -> [Callback] {
    allCases.filter { $0.canBeDelivered(on: profile) }
  }

  /// How a message names a profile's iOS version and scene mode: `iOS 12 without scenes`.
  public static func profileName(_ profile: Profile) -> String {
    "iOS \(profile.ios) \(profile.scenes ? "with" : "without") scenes"
  }
}
