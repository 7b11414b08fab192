import Lifecycle

/// The delegate protocols a scan looks for, and the selectors that make a method one of theirs.
///
/// A method counts as a delegate method only when its type adopts the protocol (in its
/// declaration or any extension) and its selector is one the protocol declares: an observer
/// called `applicationDidEnterBackground()` on another type is not one.
package enum DelegateRole: String, Sendable, CaseIterable {
  case application, scene, notification
  /// A CarPlay scene's delegate: a scene of its own, beside the app's window scenes.
  case carPlay = "carplay_scene"

  /// The protocol names that give a type this role (`UIWindowSceneDelegate` refines `UISceneDelegate`).
  var protocols: Set<String> {
    switch self {
    case .application: return ["UIApplicationDelegate"]
    case .scene: return ["UISceneDelegate", "UIWindowSceneDelegate"]
    case .notification: return ["UNUserNotificationCenterDelegate"]
    case .carPlay: return Self.carPlayProtocols
    }
  }

  /// UISceneDelegate's own life cycle, which every scene's delegate hears.
  private static let sceneLifecycle: [Callback] = [
    .willConnectTo, .sceneDidDisconnect, .sceneWillEnterForeground, .sceneDidBecomeActive, .sceneWillResignActive, .sceneDidEnterBackground,
  ]

  /// CarPlay's scene delegates: the app's templates, its dashboard, its instrument cluster.
  static let carPlayProtocols: Set<String> = [
    "CPTemplateApplicationSceneDelegate", "CPTemplateApplicationDashboardSceneDelegate", "CPTemplateApplicationInstrumentClusterSceneDelegate",
  ]

  /// The selectors of this role: the model's callbacks (Lifecycle's `Callback`) and the common
  /// methods the model does not deliver.
  var selectors: Set<String> {
    // A CarPlay scene delegate is a UISceneDelegate too: it hears the scene's life cycle.
    let receiver = self == .carPlay ? Callback.Receiver.sceneDelegate : receiver
    let callbacks = self == .carPlay ? Self.sceneLifecycle : Callback.allCases.filter { $0.receiver == receiver }
    var known = Set(callbacks.map(\.signature))
    known.formUnion(Self.unmodelled[self] ?? [])
    return known
  }

  private var receiver: Callback.Receiver {
    switch self {
    case .application: return .appDelegate
    case .scene: return .sceneDelegate
    case .notification: return .notificationDelegate
    case .carPlay: return .sceneDelegate
    }
  }

  /// Delegate methods real apps implement that the model has no callback for.
  private static let unmodelled: [DelegateRole: [String]] = [
    .application: [
      "application(_:didRegisterForRemoteNotificationsWithDeviceToken:)",
      "application(_:didFailToRegisterForRemoteNotificationsWithError:)",
      "application(_:supportedInterfaceOrientationsFor:)",
      "application(_:shouldAllowExtensionPointIdentifier:)",
      "application(_:handlerFor:)",
    ],
    .scene: ["windowScene(_:didUpdate:interfaceOrientation:traitCollection:)"],
    .carPlay: [
      "templateApplicationScene(_:didConnect:)", "templateApplicationScene(_:didDisconnectInterfaceController:)",
      "templateApplicationScene(_:didConnect:to:)", "templateApplicationScene(_:didDisconnect:from:)",
      "templateApplicationDashboardScene(_:didConnect:to:)", "templateApplicationDashboardScene(_:didDisconnect:from:)",
      "templateApplicationInstrumentClusterScene(_:didConnect:)",
      "templateApplicationInstrumentClusterScene(_:didDisconnectInstrumentClusterController:)",
    ],
    .notification: ["userNotificationCenter(_:openSettingsFor:)"],
  ]

  /// The selector a method implements: its own, or for an `async` method the completion-handler
  /// selector Swift imports it from (`application(_:didReceiveRemoteNotification:)` async is
  /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`). Nil: not this role's.
  func implementedSelector(_ selector: String, isAsync: Bool) -> String? {
    let known = selectors
    if known.contains(selector) { return selector }
    guard isAsync, selector.hasSuffix(")") else { return nil }
    let open = String(selector.dropLast())
    for label in ["completionHandler:", "withCompletionHandler:", "fetchCompletionHandler:"] where known.contains(open + label + ")") {
      return open + label + ")"
    }
    return nil
  }
}

/// The app-delegate methods UIKit does not call in a scene app, and what it calls instead.
package enum SceneReplacements {
  /// For an app-delegate selector a scene app never hears: the scene-delegate selector UIKit calls instead.
  static func replacement(for selector: String) -> String? {
    guard let callback = Callback(signature: selector), callback.receiver == .appDelegate,
          let replacement = callback.sceneReplacement else { return nil }
    return replacement.signature
  }

  /// The launch methods: a registration or a delegate set from one of these is in time.
  static let launchSelectors: Set<String> = [
    "application(_:willFinishLaunchingWithOptions:)", "application(_:didFinishLaunchingWithOptions:)",
  ]
}
