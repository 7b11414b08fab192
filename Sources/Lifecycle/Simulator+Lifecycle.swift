// UIKit's sequences for the app as a whole: what each scenario verb runs, launches,
// the application and scene transitions, protected data and force quit.

extension Simulator {
  /// UIKit's sequence for a recorded input, as its row of the verb table declares it.
  func run(_ input: Input) throws(ProcessEnded) {
    try input.spec.sequence(input, self)
  }

  // MARK: - Launch

  func startProcess(mode: LaunchMode, state appState: ApplicationState) throws(ProcessEnded) {
    emit(.processStarted(mode: mode, state: appState))
    loadingApp = true
    let started = driver.startProcess(services: self)
    loadingApp = false
    switch started {
    case let .success(l): layout = l
    case let .failure(fault): try fail(fault, in: "app script", target: "App")
    }
    if mode != .prewarm { try requireSceneLifecycle() }
    diagnoseHandlers()
  }

  /// Where UIKit creates the process's main scene, before any app-delegate method: a sceneless
  /// app built with an SDK that requires scenes traps there (knob `sceneLifecycleAssert`); on
  /// iOS 26, or built with an older SDK, it gets a warning (knob `sceneRequiredNote`). A
  /// prewarmed process reaches this point when its launch continues.
  func requireSceneLifecycle() throws(ProcessEnded) {
    guard !profile.scenes else { return }
    if profile.sceneLifecycleAssert {
      note("sceneLifecycleRequired", "Application failed to launch: \(Self.sceneLifecycleAssertion)", code: Self.sceneLifecycleRequiredCode)
      terminate(Termination(reason: .crash, code: "EXC_BREAKPOINT", description: Self.sceneLifecycleAssertion))
      throw ProcessEnded()
    }
    if profile.sceneRequiredNote {
      note("sceneLifecycleRequired", "UIScene lifecycle will soon be required. Failure to adopt will result in an assert in the future.",
           code: Self.sceneLifecycleRequiredCode)
    }
  }

  /// The diagnostic code of the notes and the trap of the scene mandate.
  static let sceneLifecycleRequiredCode = "scene_lifecycle_required"
  /// UIKit's description of the trap of the scene mandate.
  static let sceneLifecycleAssertion = "UIScene life cycle is required for apps built with this SDK"

  /// The user opens the app: icon, URL, unlock, or the switcher.
  func userLaunch(url: String?) throws(ProcessEnded) {
    switch state.process {
    case .notRunning:
      try startProcess(mode: .foreground, state: profile.scenes ? .background : .inactive)
      try foregroundLaunch(url: url)
    case .prewarmed:
      emit(.launchContinued(state: profile.scenes ? .background : .inactive))
      try requireSceneLifecycle()
      try foregroundLaunch(url: url)
    case .suspended, .running:
      if state.process == .suspended { emit(.resumed) }
      try deliverQueued(foreground: true)
      if state.applicationState == .active {
        if let url { try deliver(profile.scenes ? .openURLContexts : .openURL, profile.scenes ? "SceneDelegate" : "AppDelegate", url: url) }
        try deliverOpening(at: nil)
        return
      }
      try returnToForeground(url: url)
    }
  }

  /// willFinish … the root's viewDidAppear, under the launch watchdog.
  func foregroundLaunch(url: String?) throws(ProcessEnded) {
    launching = true
    scheduler.arm(.launch)
    defer { launching = false; scheduler.disarmInnermost() }
    if !profile.scenes { try buildRoot() }
    if !state.didFinishLaunchingRan {
      // A scene app's launch options are nil: what opened it goes to the connection options.
      let options = openingLaunchOptions(), launchURL = profile.scenes ? nil : url
      try deliver(.willFinishLaunchingWithOptions, "AppDelegate", url: launchURL, payload: options)
      try restoreControllers()
      try deliver(.didFinishLaunchingWithOptions, "AppDelegate", url: launchURL, payload: options)
      try post("UIApplication.didFinishLaunchingNotification")
    }
    if profile.scenes {
      try connectScene(url: url)
    } else {
      try showRootSceneless(url: url)
    }
  }

  /// Sceneless: the root appears around applicationDidBecomeActive (knob launchAppearanceOrder).
  func showRootSceneless(url: String?) throws(ProcessEnded) {
    guard let root = inPlace({ $0.topController }) else { return }
    try loadView(root)
    switch profile.launchAppearanceOrder {
    case .willAppearBeforeActive:
      try beginAppearance(root, animated: false)
      if let url { try deliver(.openURL, "AppDelegate", url: url) }
      try becomeActive()
      try deliver(.viewDidAppear, state.label(root), animated: false)
    case .allVCBeforeActive:
      try beginAppearance(root, animated: false)
      try deliver(.viewDidAppear, state.label(root), animated: false)
      if let url { try deliver(.openURL, "AppDelegate", url: url) }
      try becomeActive()
    case .allVCAfterActive:
      if let url { try deliver(.openURL, "AppDelegate", url: url) }
      try becomeActive()
      try beginAppearance(root, animated: false)
      try deliver(.viewDidAppear, state.label(root), animated: false)
    }
  }

  /// Sceneless background launch: the root joins the window (so it "appears", unseen) before
  /// applicationDidEnterBackground; no activation follows.
  func showRootInBackground() throws(ProcessEnded) {
    guard let root = inPlace({ $0.topController }) else { return }
    try loadView(root)
    try beginAppearance(root, animated: false)
    try deliver(.viewDidAppear, state.label(root), animated: false)
  }

  /// Sessions discarded while the app was not running are reported shortly after its next
  /// launch, a launch in the background included (docs/model.md §2).
  func reportDiscardedSessions() throws(ProcessEnded) {
    if state.sessionDiscardPending { try deliver(.didDiscardSceneSessions, "AppDelegate") }
  }

  /// Scene apps: [didDiscardSceneSessions] [configurationForConnecting] willConnectTo, the root,
  /// foreground, active. A kept unattached session reconnects (the window `focus(n)` named, else
  /// the one frontmost last, `sessionToReconnect`) without `configurationForConnecting`; else a
  /// new one is made.
  func connectScene(url: String?) throws(ProcessEnded) {
    try reportDiscardedSessions()
    let focused = windowToReconnect.flatMap { state.session(numbered: $0) }.flatMap { $0.scene == nil ? $0 : nil }
    windowToReconnect = nil
    let kept = focused ?? state.sessionToReconnect
    if kept == nil {
      try deliver(.configurationForConnecting, "AppDelegate")
      emit(.sceneSessionChanged(created: true))
    }
    emit(.sceneConnected(scene: SceneState.label(number: state.scenesConnected + 1), session: state.sessionNamedInEvents(kept)))
    try buildRoot()
    try deliver(.willConnectTo, "SceneDelegate", url: url, payload: connectionPayload(options: openingConnectionOptions()))
    try showConnectedScene(restoring: true)
  }

  /// A scene just connected (the front one) comes on screen: its root's view, foreground, active,
  /// the root's viewDidAppear. `restoring`: its session may have an interaction state to restore.
  func showConnectedScene(restoring: Bool) throws(ProcessEnded) {
    try post("UIScene.willConnectNotification")
    guard let root = inPlace({ $0.topController }) else { return }
    try loadView(root)
    switch profile.sceneLaunchAppearanceOrder {
    case .willAppearBeforeForeground:
      try beginAppearance(root, animated: false)
      try enterForeground(url: nil)
      if restoring { try offerRestoreInteraction() }
      try becomeActive()
    case .allVCAfterActive:
      try enterForeground(url: nil)
      if restoring { try offerRestoreInteraction() }
      try becomeActive()
      try beginAppearance(root, animated: false)
    }
    try deliver(.viewDidAppear, state.label(root), animated: false)
  }

  /// Back from background or suspension (the process still exists).
  func returnToForeground(url: String?) throws(ProcessEnded) {
    if profile.scenes, state.scenes.isEmpty || state.sessions.last?.scene == nil {
      // Launched in the background, or its scene (the window frontmost last) was disconnected:
      // connecting one now is a launch, under the launch watchdog (the hang rule applies once
      // it is done).
      launching = true
      scheduler.arm(.launch)
      defer { launching = false; scheduler.disarmInnermost() }
      try connectScene(url: url)
      return
    }
    try enterForeground(url: url)
    try becomeActive()
  }

  func backgroundLaunch(_ event: BackgroundEvent) throws(ProcessEnded) {
    if state.forceQuit {
      note("backgroundLaunchNotDelivered", "the user force quit the app: \(event.rawValue) is not delivered until the user opens it again")
      return
    }
    if withholdsFetch(event) { return }
    try wakeInBackground()
    noteDeprecatedFetch(event)
    try deliver(event.callback, "AppDelegate", completion: state.completionsIssued + 1)
  }

  /// Launches (no scene), continues or resumes the process in the background for an event; an
  /// app already running is left as it is. A resumed sceneless app hears didEnterBackground again
  /// (knob `resumeBackgroundEventCallsDidEnterBackground`) unless `repeatingDidEnterBackground` is
  /// false: BGTasks and background sessions wake it without one.
  func wakeInBackground(repeatingDidEnterBackground: Bool = true) throws(ProcessEnded) {
    switch state.process {
    case .notRunning, .prewarmed:
      try launchInBackground()
    case .suspended:
      try resumeInBackground()
      if repeatingDidEnterBackground, !profile.scenes, profile.resumeBackgroundEventCallsDidEnterBackground {
        try didEnterBackground()
      }
    case .running:
      break
    }
  }

  /// A process that is not running (or prewarmed) launches into the background for a system
  /// event: no scene connects; a sceneless app builds its window and enters the background.
  func launchInBackground() throws(ProcessEnded) {
    if state.process == .notRunning {
      try startProcess(mode: .background, state: .background)
    } else {
      emit(.launchContinued(state: .background))
      try requireSceneLifecycle()
    }
    // A sceneless app builds its window in the background as at any launch: the root's
    // init(coder:) before willFinishLaunching, its view and appearance after didFinishLaunching.
    if !profile.scenes, state.applicationWindow == nil { try buildRoot() }
    if !state.didFinishLaunchingRan {
      try deliver(.willFinishLaunchingWithOptions, "AppDelegate")
      try deliver(.didFinishLaunchingWithOptions, "AppDelegate")
      try post("UIApplication.didFinishLaunchingNotification")
    }
    try reportDiscardedSessions()
    if !profile.scenes {
      try showRootInBackground()
      try didEnterBackground()
    }
  }

  // MARK: - App-level transitions

  func setApplicationState(_ to: ApplicationState) {
    if state.applicationState != to { emit(.applicationStateChanged(from: state.applicationState, to: to)) }
  }

  /// Scene `label` (nil: the front scene) moves to `to`.
  func setScene(_ to: SceneActivation, _ label: String? = nil) {
    guard let label = label ?? state.frontScene?.label, let scene = state.scenes.first(where: { $0.label == label }),
          scene.activation != to else { return }
    emit(.sceneActivationChanged(scene: label, from: scene.activation, to: to))
  }

  /// The application state follows the scenes (the most active one's); with none connected, `fallback`.
  func followScenes(or fallback: ApplicationState) {
    setApplicationState(inPlace({ $0.sceneAggregate }) ?? fallback)
  }

  /// Whether a scene other than `label` (nil: the front one) is in one of `activations`: the
  /// aggregate `UIApplication` notification is then not posted (docs/model.md §19).
  func otherScene(than label: String?, isIn activations: [SceneActivation]) -> Bool {
    let label = label ?? state.frontScene?.label
    return state.scenes.contains { $0.label != label && activations.contains($0.activation) }
  }

  func resignActive(_ scene: String? = nil) throws(ProcessEnded) {
    if profile.scenes {
      let stillActive = otherScene(than: scene, isIn: [.foregroundActive])
      try deliver(.sceneWillResignActive, "SceneDelegate", scene: scene)
      try post("UIScene.willDeactivateNotification")
      if !stillActive { try post("UIApplication.willResignActiveNotification") }
      setScene(.foregroundInactive, scene)
      followScenes(or: .inactive)
    } else {
      try deliver(.applicationWillResignActive, "AppDelegate")
      try post("UIApplication.willResignActiveNotification")
      setApplicationState(.inactive)
    }
  }

  func becomeActive(_ scene: String? = nil) throws(ProcessEnded) {
    try deliverOpening(at: .beforeDidBecomeActive)
    if profile.scenes {
      let alreadyActive = otherScene(than: scene, isIn: [.foregroundActive])
      setScene(.foregroundActive, scene)
      followScenes(or: .active)
      try deliver(.sceneDidBecomeActive, "SceneDelegate", scene: scene)
      try post("UIScene.didActivateNotification")
      if !alreadyActive { try post("UIApplication.didBecomeActiveNotification") }
    } else {
      setApplicationState(.active)
      try deliver(.applicationDidBecomeActive, "AppDelegate")
      try post("UIApplication.didBecomeActiveNotification")
    }
    try deliverOpening(at: .afterDidBecomeActive)
  }

  /// inactive → background: the transition, the 5 s budget, then the snapshot.
  func enterBackground(_ scene: String? = nil) throws(ProcessEnded) {
    try saveRestorationState(.beforeDidEnterBackground, scene: scene)
    let stillForeground = otherScene(than: scene, isIn: [.foregroundActive, .foregroundInactive])
    setScene(.background, scene)
    followScenes(or: .background)
    try didEnterBackground(scene, last: !stillForeground)
    try saveRestorationState(.afterDidEnterBackground, scene: scene)
    if profile.snapshotTraitFlip {
      let visible = inPlace { $0.visibleControllers(in: scene) }
      for _ in 0..<2 {
        for id in visible { try deliver(.traitCollectionDidChange, state.label(id)) }
      }
    }
  }

  /// The didEnterBackground callback and notifications, under their budget; the application's
  /// notification only when the `last` foreground scene leaves.
  func didEnterBackground(_ scene: String? = nil, last: Bool = true) throws(ProcessEnded) {
    let callback: Callback = profile.scenes ? .sceneDidEnterBackground : .applicationDidEnterBackground
    scheduler.arm(.didEnterBackground(callback))
    defer { scheduler.disarmInnermost() }
    if profile.scenes {
      try deliver(.sceneDidEnterBackground, "SceneDelegate", scene: scene)
      try post("UIScene.didEnterBackgroundNotification")
    } else {
      try deliver(.applicationDidEnterBackground, "AppDelegate")
    }
    if last { try post("UIApplication.didEnterBackgroundNotification") }
  }

  /// background → inactive (rotation news first, then the URL after willEnterForeground).
  func enterForeground(url: String?, _ scene: String? = nil) throws(ProcessEnded) {
    if state.rotationPending { try deliverRotation() }
    if profile.scenes {
      let alreadyForeground = otherScene(than: scene, isIn: [.foregroundActive, .foregroundInactive])
      try deliver(.sceneWillEnterForeground, "SceneDelegate", scene: scene)
      try post("UIScene.willEnterForegroundNotification")
      if !alreadyForeground { try post("UIApplication.willEnterForegroundNotification") }
      setScene(.foregroundInactive, scene)
      followScenes(or: .inactive)
      if let url { try deliver(.openURLContexts, "SceneDelegate", url: url, scene: scene) }
    } else {
      try deliver(.applicationWillEnterForeground, "AppDelegate")
      try post("UIApplication.willEnterForegroundNotification")
      setApplicationState(.inactive)
      if let url { try deliver(.openURL, "AppDelegate", url: url) }
    }
  }

  func protectedData(available: Bool) throws(ProcessEnded) {
    if available {
      emit(.protectedDataChanged(available: true))
      if state.process == .running {
        try deliver(.applicationProtectedDataDidBecomeAvailable, "AppDelegate")
        try post("UIApplication.protectedDataDidBecomeAvailableNotification")
      }
    } else {
      if state.process == .running {
        try deliver(.applicationProtectedDataWillBecomeUnavailable, "AppDelegate")
        try post("UIApplication.protectedDataWillBecomeUnavailableNotification")
      }
      emit(.protectedDataChanged(available: false))
    }
  }

  func forceQuit() throws(ProcessEnded) {
    guard state.process == .running else {
      discardSceneSession()
      terminate(Termination(reason: .user, code: nil, description: "force quit from the app switcher while suspended"))
      return
    }
    for scene in inPlace({ $0.scenesInServiceOrder }).map(\.label) where profile.scenes {
      try deliver(.sceneDidDisconnect, "SceneDelegate", scene: scene)
      try post("UIScene.didDisconnectNotification")
      emit(.sceneDisconnected(scene: scene))
    }
    scheduler.arm(.willTerminate)
    defer { scheduler.disarmInnermost() }
    do {
      try deliver(.applicationWillTerminate, "AppDelegate")
      try post("UIApplication.willTerminateNotification")
    } catch {
      // applicationWillTerminate overran its budget (or crashed): the process is gone, but
      // the user swiped the card away, so the session goes all the same.
      discardSceneSession()
      throw error
    }
    discardSceneSession()
    terminate(Termination(reason: .user, code: nil, description: "force quit from the app switcher"))
  }

  /// A force quit ends the scenes' sessions, whatever the app delegate does.
  private func discardSceneSession() {
    forgetRestorationAtForceQuit()
    guard profile.scenes else { return }
    for session in state.sessions { emit(.sceneSessionChanged(created: false, session: state.sessionNamedInEvents(session))) }
  }
}
