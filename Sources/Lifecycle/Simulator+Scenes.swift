import JSON

// UIKit's sequences for several scenes of one process (docs/model.md §19): a new window, closing
// one, focus, Split View and its divider, and what an input that reaches every foreground scene
// does to each, frontmost first, then by number.

extension Simulator {
  // MARK: - Every foreground scene

  /// Every active scene resigns (the switcher, Control Center, an alert, home); a sceneless app's
  /// window the same way.
  func resignEveryScene() throws(ProcessEnded) {
    guard profile.scenes, !state.scenes.isEmpty else {
      if state.applicationState == .active { try resignActive() }
      return
    }
    for scene in inPlace({ $0.foregroundScenesInServiceOrder }) where scene.activation == .foregroundActive {
      guard stillIn(scene.label, [.foregroundActive]) else { continue }
      try resignActive(scene.label)
    }
  }

  /// Every foreground scene enters the background (home, lock, another app).
  func backgroundEveryScene() throws(ProcessEnded) {
    guard profile.scenes, !state.scenes.isEmpty else { return try enterBackground() }
    for scene in inPlace({ $0.foregroundScenesInServiceOrder }) {
      guard stillIn(scene.label, [.foregroundActive, .foregroundInactive]) else { continue }
      try enterBackground(scene.label)
    }
  }

  /// Every foreground inactive scene becomes active again (an interruption ends, back from the switcher).
  func activateEveryScene() throws(ProcessEnded) {
    guard profile.scenes, !state.scenes.isEmpty else { return try becomeActive() }
    for scene in inPlace({ $0.foregroundScenesInServiceOrder }) where scene.activation == .foregroundInactive {
      guard stillIn(scene.label, [.foregroundInactive]) else { continue }
      try becomeActive(scene.label)
    }
  }

  /// Whether scene `label` is still connected in one of `activations` (app code may have changed it).
  private func stillIn(_ label: String, _ activations: [SceneActivation]) -> Bool {
    state.scenes.contains { $0.label == label && activations.contains($0.activation) }
  }

  // MARK: - Windows

  /// A new window (the user's drag or the app's request): a new session, its scene connects with
  /// the activity in its connection options and comes on screen frontmost; the scenes that were
  /// in the foreground then resign and enter the background (knob `ipadWindowing26`: they stay
  /// active, and the two scenes' controllers hear of the focus moving).
  func openWindow(activity: String?) throws(ProcessEnded) {
    let previous = inPlace({ $0.foregroundScenesInServiceOrder }).map(\.label), previousFront = state.frontScene?.label
    try deliver(.configurationForConnecting, "AppDelegate")
    emit(.sceneSessionChanged(created: true))
    emit(.sceneConnected(scene: SceneState.label(number: state.scenesConnected + 1)))
    try buildRoot()
    try deliver(.willConnectTo, "SceneDelegate", payload: windowConnectionPayload(activity))
    try showConnectedScene(restoring: false)
    try leave(previous, front: previousFront)
  }

  /// `focus(n)`: window `n`'s scene (already frontmost in the state) comes to the foreground and
  /// becomes active; the others leave as `leave` says. A window whose scene was released (a
  /// relaunch, `disconnect_scene`) reconnects: the input's fold made its session the next to.
  func focus(session n: Int) throws(ProcessEnded) {
    guard let label = state.session(numbered: n)?.scene else {
      // The input's fold made it the window frontmost last: a launch, or a return, reconnects it.
      if state.process == .notRunning || state.process == .prewarmed || state.applicationState == .background {
        windowToReconnect = n
        defer { windowToReconnect = nil }  // also when the launch ends the process before connecting
        return try userLaunch(url: nil)
      }
      return try reconnectSession(n, activity: nil)
    }
    // The input's fold brought it to the end of `scenes`: the one before it was frontmost.
    let previous = inPlace({ $0.foregroundScenesInServiceOrder }).map(\.label).filter { $0 != label }
    let previousFront = state.scenes.dropLast().last?.label
    try resumeForTheUser()
    try bringForward(label)
    try leave(previous, front: previousFront)
  }

  /// `side_by_side(a, b)`: both scenes foreground active; any other foreground scene enters the background.
  func sideBySide(_ a: String, _ b: String) throws(ProcessEnded) {
    let others = inPlace({ $0.foregroundScenesInServiceOrder }).map(\.label).filter { $0 != a && $0 != b }
    try resumeForTheUser()
    try bringForward(a)
    try bringForward(b)
    for label in others where !profile.ipadWindowing26 { try sendBack(label) }
  }

  /// `drag_divider()`: every visible scene resigns, each visible controller is resized, then each
  /// scene becomes active again: the app's notifications once each way (S139).
  func dragDivider() throws(ProcessEnded) {
    let visible = inPlace({ $0.foregroundScenesInServiceOrder }).map(\.label)
    try resignEveryScene()
    for label in visible {
      for id in inPlace({ $0.visibleControllers(in: label) }) { try deliver(.viewWillTransitionToSize, state.label(id)) }
    }
    try activateEveryScene()
  }

  /// `close_window(n)`: a running process hears the scene leave (resign, background, disconnect)
  /// and the session's discard at once; a suspended one hears nothing now, and the discarded
  /// session at its next launch (docs/decisions.md, closing a window of a suspended app). The
  /// session's restoration activity goes with it. A window whose scene was released has only
  /// its session to discard.
  func closeWindow(session n: Int) throws(ProcessEnded) {
    guard let session = state.session(numbered: n) else { return }
    if let label = session.scene {
      if state.process == .running {
        if stillIn(label, [.foregroundActive, .foregroundInactive]) { try sendBack(label) }
        try deliver(.sceneDidDisconnect, "SceneDelegate", scene: label)
        try post("UIScene.didDisconnectNotification")
      }
      emit(.sceneDisconnected(scene: label))
    }
    let named = state.sessionNamedInEvents(session)
    // Read again: a window on screen saved its activity as it left, after `session` was read.
    if state.session(numbered: n)?.restorationActivity != nil {
      emit(.restorationChanged(.activityDeleted(why: "the window was closed: its session was discarded", session: named)))
    }
    emit(.sceneSessionChanged(created: false, session: named))
    if state.process == .running { try deliver(.didDiscardSceneSessions, "AppDelegate") }
  }

  // MARK: - The app's requests

  /// Records `requestSceneSessionActivation` / `requestSceneSessionDestruction`, or refuses one
  /// that names no open window or that no profile of the app could serve (a Lua error at the
  /// app's line); UIKit serves it once the app code returns. Answers an activation request with
  /// its number, which names its `errorHandler` (`SceneRequest#n`).
  func requestScene(_ request: AppRequest, at: String?) throws(AppCallError) -> Int? {
    let call: AppCall
    switch request {
    case let .requestSceneActivation(session, activity): call = .requestSceneActivation(session: session, activity: activity)
    case let .requestSceneDestruction(session): call = .requestSceneDestruction(session: session)
    default: return nil
    }
    if let why = whyRefused(call) { throw .invalid("\(call.name): \(why)") }
    emit(.appCalled(call, at: at))
    guard case .requestSceneActivation = call else {
      sceneRequests.append(SceneRequest(call: call, number: nil))
      return nil
    }
    sceneRequests.append(SceneRequest(call: call, number: state.sceneActivationsRequested))
    return state.sceneActivationsRequested
  }

  private func whyRefused(_ call: AppCall) -> String? {
    switch call {
    case .requestSceneActivation(nil, _):
      // A new window the app cannot have is UIKit's error, given to the request's errorHandler.
      return IOSRelease.hasScenes(profile.ios) ? nil : "scene sessions need iOS \(IOSRelease.firstWithScenes) or later (profile: iOS \(profile.ios))"
    case .requestSceneActivation(let n?, _), .requestSceneDestruction(let n):
      if profile.device != .ipad || !profile.scenes { return "windows are an iPad's with scenes (scenario { device = \"ipad\" })" }
      return state.session(numbered: n) == nil ? "no window \(n) is open (open: \(state.openWindowsText))" : nil
    default: return nil
    }
  }

  /// Why UIKit never gives this app a second scene, or nil when it may: only an iPad app with
  /// scenes that declares `UIApplicationSupportsMultipleScenes` (S-multi) has several windows.
  private var whyOneSceneOnly: String? {
    if !profile.scenes { return "the app does not use scenes" }
    if profile.device != .ipad { return "an iPhone shows one scene of an app" }
    return profile.multipleScenes ? nil : "the app does not declare app { multipleScenes = true } (UIApplicationSupportsMultipleScenes)"
  }

  /// A new window the app cannot have: UIKit calls the request's `errorHandler`, if it gave one,
  /// with `UISceneError.Code.multipleScenesNotSupported`, and the app keeps running (S137, S-multi).
  private func refuseSecondScene(_ request: SceneRequest, because why: String) throws(ProcessEnded) {
    note("sceneRequestDenied", "\(request.call.name) denied: \(Self.multipleScenesNotSupported): \(why)")
    guard let number = request.number else { return }
    let target = SceneRequest.label(number)
    guard driver.implements(.sceneRequestErrorHandler, target: target) else { return }
    try deliver(.sceneRequestErrorHandler, target, payload: .object([("error", .string(Self.multipleScenesNotSupported))]))
  }

  /// `UISceneError.Code.multipleScenesNotSupported`, as the error handler receives it.
  static let multipleScenesNotSupported = "multipleScenesNotSupported"

  /// The most scene requests served after one verb or timer: a window that asks for another
  /// from its own activation would otherwise open windows for ever at one instant.
  static let sceneRequestsServedMax = 64

  /// Serves the app's scene requests, in the order made. A new window the app cannot have is
  /// refused through the request's `errorHandler`; an activation is denied when no scene
  /// is in the foreground by then (UIKit brings a window forward only for an app on screen: one
  /// asked for from `sceneDidEnterBackground` after `home()` stays away), and every request past
  /// `sceneRequestsServedMax` or the host's wall-clock guard is denied.
  func serveSceneRequests() throws(ProcessEnded) {
    var served = 0
    while !sceneRequests.isEmpty, state.process == .running {
      let request = sceneRequests.removeFirst()
      defer { request.number.map(driver.sceneRequestAnswered) }
      guard served < Self.sceneRequestsServedMax, driver.hostWorkMayContinue() else {
        for dropped in sceneRequests { dropped.number.map(driver.sceneRequestAnswered) }
        sceneRequests = []
        return note("sceneRequestDenied", "\(request.call.name) denied: \(Self.sceneRequestsServedMax) scene requests were served since the last verb, and the app keeps asking")
      }
      served += 1
      if case .requestSceneActivation(nil, _) = request.call, let why = whyOneSceneOnly {
        try refuseSecondScene(request, because: why)
        continue
      }
      switch request.call {
      case .requestSceneActivation where !state.scenes.contains(where: { $0.activation.isForeground }):
        note("sceneRequestDenied", "\(request.call.name) denied: no window of the app is in the foreground")
      case .requestSceneActivation(nil, _) where state.sessions.count >= LifecycleState.sessionsMax:
        note("sceneRequestDenied", "\(request.call.name) denied: the app keeps \(LifecycleState.sessionsMax) windows, the most lifesim models")
      case .requestSceneActivation(nil, let activity): try openWindow(activity: activity)
      case .requestSceneActivation(let n?, let activity): try activateSession(n, activity: activity)
      case let .requestSceneDestruction(n): try closeWindow(session: n)
      default: break
      }
    }
    sceneRequests = []
  }

  /// Session `n` activated (the fold brought its scene frontmost, or made it the next to
  /// reconnect): a connected scene comes forward as with `focus`, then receives the activity
  /// through `scene(_:continue:)` (S137); an unattached session reconnects. A window closed since
  /// the request (by an earlier request of the same code) is not served.
  private func activateSession(_ n: Int, activity: String?) throws(ProcessEnded) {
    guard let session = state.session(numbered: n) else {
      return note("sceneRequestDenied", "UIApplication.requestSceneSessionActivation denied: window \(n) was closed before it was served")
    }
    guard let label = session.scene else { return try reconnectSession(n, activity: activity) }
    let previous = inPlace({ $0.foregroundScenesInServiceOrder }).map(\.label).filter { $0 != label }
    try bringForward(label)
    try leave(previous, front: state.scenes.dropLast().last?.label)
    if let activity {
      try deliver(.sceneContinueUserActivity, "SceneDelegate",
                  payload: .object([("activity", Opening.activity(type: activity, webpageURL: nil))]), scene: label)
    }
  }

  /// Window `n`'s kept session, whose scene UIKit released, while another window is on screen
  /// (`focus(n)`, an activation request): a new scene connects to it without
  /// `configurationForConnecting` (W3), with the activity in its connection options and the
  /// session's restoration activity, and comes on screen frontmost.
  private func reconnectSession(_ n: Int, activity: String?) throws(ProcessEnded) {
    let previous = inPlace({ $0.foregroundScenesInServiceOrder }).map(\.label), previousFront = state.frontScene?.label
    emit(.sceneConnected(scene: SceneState.label(number: state.scenesConnected + 1),
                         session: state.sessionNamedInEvents(state.session(numbered: n))))
    try buildRoot()
    try deliver(.willConnectTo, "SceneDelegate", payload: windowConnectionPayload(activity))
    try showConnectedScene(restoring: true)
    try leave(previous, front: previousFront)
  }

  /// `willConnectTo`'s payload for a window opened with `activity`: `options.userActivities`
  /// (S138), and its session's restoration activity when it has one.
  private func windowConnectionPayload(_ activity: String?) -> JSONValue? {
    let options: JSONValue? = activity.map {
      .object([("options", .object([("userActivities", .array([Opening.activity(type: $0, webpageURL: nil)]))]))])
    }
    return connectionPayload(options: options)
  }

  /// A suspended app the user brings a window of forward runs again, and hears first what was
  /// queued for its return to the foreground (as `launch()` does).
  private func resumeForTheUser() throws(ProcessEnded) {
    guard state.process == .suspended else { return }
    emit(.resumed)
    try deliverQueued(foreground: true)
  }

  /// Scene `label` comes to the foreground (from the background) and becomes active.
  private func bringForward(_ label: String) throws(ProcessEnded) {
    if stillIn(label, [.background, .unattached]) { try enterForeground(url: nil, label) }
    if stillIn(label, [.foregroundInactive]) { try becomeActive(label) }
  }

  /// Scene `label` resigns if active and enters the background.
  private func sendBack(_ label: String) throws(ProcessEnded) {
    if stillIn(label, [.foregroundActive]) { try resignActive(label) }
    if stillIn(label, [.foregroundInactive]) { try enterBackground(label) }
  }

  /// The scenes that were in the foreground before another came frontmost: each resigns and
  /// enters the background; with `ipadWindowing26` they stay active and the controllers of the
  /// previous frontmost scene and the new one get a trait change (`activeAppearance`).
  private func leave(_ previous: [String], front previousFront: String?) throws(ProcessEnded) {
    guard profile.ipadWindowing26 else {
      for label in previous { try sendBack(label) }
      return
    }
    guard let front = state.frontScene?.label, let previousFront, previousFront != front else { return }
    for label in [previousFront, front] {
      for id in inPlace({ $0.visibleControllers(in: label) }) { try deliver(.traitCollectionDidChange, state.label(id)) }
    }
  }
}

/// An app's scene request UIKit has not served yet: the call and, for an activation, its number
/// (the app's activation requests counted from 1), which names its `errorHandler`.
struct SceneRequest {
  let call: AppCall
  let number: Int?

  /// The target an activation request's `errorHandler` is delivered to: `SceneRequest#3`.
  static func label(_ number: Int) -> String { "SceneRequest#\(number)" }
}
