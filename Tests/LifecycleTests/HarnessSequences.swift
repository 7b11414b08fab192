import Testing
@testable import Lifecycle

/// The cold launch from the home screen with the default knobs, as the conformance suite pins
/// it (docs/model.md, "Launch"): callbacks, notifications and system events, per profile.
enum StandardLaunch {
  /// A sceneless app's callbacks: the `roots` (a tab bar app has several) are built before
  /// willFinish, and the first appears around applicationDidBecomeActive.
  static func scenelessCalls(ios: Int, roots: [String] = ["NoteList#1"]) -> [String] {
    let AD = "AppDelegate.", NL = roots[0] + "."
    var s = roots.map { $0 + ".init(coder:)" }
    s += [AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)",
          NL + "loadView()", NL + "viewDidLoad()", NL + "viewWillAppear(_:)"]
    if ios >= 13 { s.append(NL + "viewIsAppearing(_:)") }
    if ios >= 26 { s.append(NL + "updateProperties()") }
    s += [NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()", AD + "applicationDidBecomeActive(_:)",
          NL + "viewDidAppear(_:)"]
    return s
  }

  /// A scene app's callbacks; `newSession` adds configurationForConnecting, `discarded`
  /// didDiscardSceneSessions, `instance` numbers the root controller of this process; `roots`
  /// (a tab bar app's, the first shown) replaces that root.
  static func sceneCalls(ios: Int, newSession: Bool = true, discarded: Bool = false, instance: Int = 1,
                         roots: [String]? = nil) -> [String] {
    let roots = roots ?? ["NoteList#\(instance)"]
    let AD = "AppDelegate.", SD = "SceneDelegate.", NL = roots[0] + "."
    var s = [AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)"]
    if discarded { s.append(AD + "application(_:didDiscardSceneSessions:)") }
    if newSession { s.append(AD + "application(_:configurationForConnecting:options:)") }
    s += roots.map { $0 + ".init(coder:)" }
    s += [SD + "scene(_:willConnectTo:options:)", NL + "loadView()", NL + "viewDidLoad()",
          NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)"]
    if ios >= 26 { s.append(NL + "updateProperties()") }
    s += [NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()", SD + "sceneWillEnterForeground(_:)",
          SD + "sceneDidBecomeActive(_:)", NL + "viewDidAppear(_:)"]
    return s
  }

  static let scenelessNotifications = ["UIApplication.didFinishLaunchingNotification", "UIApplication.didBecomeActiveNotification"]

  static let sceneNotifications = [
    "UIApplication.didFinishLaunchingNotification", "UIScene.willConnectNotification",
    "UIScene.willEnterForegroundNotification", "UIApplication.willEnterForegroundNotification",
    "UIScene.didActivateNotification", "UIApplication.didBecomeActiveNotification",
  ]

  static let sceneRequiredNote =
    "note sceneLifecycleRequired: UIScene lifecycle will soon be required. Failure to adopt will result in an assert in the future. [scene_lifecycle_required]"

  /// The system events: the process starts (a scene app in the background state), and an
  /// iOS 26 sceneless app gets the note that scenes will soon be required.
  static func system(_ profile: Profile) -> [String] {
    profile.scenes ? ["started foreground, background"]
      : ["started foreground, inactive"] + (profile.sceneRequiredNote ? [sceneRequiredNote] : [])
  }
}

extension Harness {
  /// Launches from the home screen and claims the standard cold launch (a test that wants a
  /// launched app, not the launch itself). Only for the default launch knobs; `roots` names the
  /// app's root controllers when they are not the one `NoteList#1` (a tab bar app's).
  func launch(roots: [String] = ["NoteList#1"], sourceLocation: SourceLocation = #_sourceLocation) throws {
    try perform(.launch(url: nil))
    expectStandardLaunch(roots: roots, sourceLocation: sourceLocation)
  }

  /// Claims the profile's standard cold launch: calls, notifications and the process start.
  /// `instance`, `newSession`, `discarded` and `roots` as `StandardLaunch.sceneCalls` takes them.
  func expectStandardLaunch(instance: Int = 1, newSession: Bool = true, discarded: Bool = false, roots: [String]? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation) {
    let p = sim.profile
    expectCalls(p.scenes ? StandardLaunch.sceneCalls(ios: p.ios, newSession: newSession, discarded: discarded, instance: instance,
                                                     roots: roots)
                         : StandardLaunch.scenelessCalls(ios: p.ios, roots: roots ?? ["NoteList#\(instance)"]),
                sourceLocation: sourceLocation)
    expectNotifications(p.scenes ? StandardLaunch.sceneNotifications : StandardLaunch.scenelessNotifications,
                        sourceLocation: sourceLocation)
    expectSystem(StandardLaunch.system(p), sourceLocation: sourceLocation)
  }

  /// Claims Home (or a lock) from the active app: resign active, enter background, the
  /// snapshot's trait flips for `visible` (from iOS 13, the default of knob `snapshotTraitFlip`:
  /// a test that changes it spells its sequence out), their notifications,
  /// then the system events `system` (by default the suspension).
  func expectHome(visible: [String] = ["NoteList#1"], system: [String] = ["suspended"],
                  sourceLocation: SourceLocation = #_sourceLocation) {
    let p = sim.profile
    let receiver = p.scenes ? "SceneDelegate." : "AppDelegate."
    let flips = p.ios >= 13 ? Array(repeating: visible.map { $0 + ".traitCollectionDidChange(_:)" }, count: 2).flatMap { $0 } : []
    // A scene is asked for its restoration activity before it enters the background (§17).
    expectCalls([receiver + (p.scenes ? "sceneWillResignActive(_:)" : "applicationWillResignActive(_:)")]
                  + (p.scenes ? [receiver + "stateRestorationActivity(for:)"] : [])
                  + [receiver + (p.scenes ? "sceneDidEnterBackground(_:)" : "applicationDidEnterBackground(_:)")] + flips,
                sourceLocation: sourceLocation)
    expectNotifications(Posted.home(scenes: p.scenes), sourceLocation: sourceLocation)
    expectSystem(system, sourceLocation: sourceLocation)
  }
}

/// The notifications of each transition: the delegate's notification, and in a scene app the
/// `UIScene` one before the `UIApplication` one (docs/model.md §1).
enum Posted {
  static func resignActive(scenes: Bool) -> [String] {
    (scenes ? ["UIScene.willDeactivateNotification"] : []) + ["UIApplication.willResignActiveNotification"]
  }
  static func enterBackground(scenes: Bool) -> [String] {
    (scenes ? ["UIScene.didEnterBackgroundNotification"] : []) + ["UIApplication.didEnterBackgroundNotification"]
  }
  static func enterForeground(scenes: Bool) -> [String] {
    (scenes ? ["UIScene.willEnterForegroundNotification"] : []) + ["UIApplication.willEnterForegroundNotification"]
  }
  static func becomeActive(scenes: Bool) -> [String] {
    (scenes ? ["UIScene.didActivateNotification"] : []) + ["UIApplication.didBecomeActiveNotification"]
  }
  /// Home (or lock) from the active app.
  static func home(scenes: Bool) -> [String] { resignActive(scenes: scenes) + enterBackground(scenes: scenes) }
  /// Back from the background.
  static func back(scenes: Bool) -> [String] { enterForeground(scenes: scenes) + becomeActive(scenes: scenes) }
}
