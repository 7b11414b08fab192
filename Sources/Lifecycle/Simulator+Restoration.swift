import JSON

// State restoration (docs/model.md §17): the scene session's restoration activity (scene apps),
// and view-controller restoration with its archive (sceneless apps). What survives is changed only
// by `RestorationChange` events, so the fold (and replay) rebuilds it from the log alone.

extension Simulator {
  // MARK: - Scene restoration

  /// What `session.stateRestorationActivity` holds for the scene just connected (the front one):
  /// its own session's (nil: nothing saved, or the session is new). Every connection reads it
  /// here, so a verb that reconnects a kept session (a system disconnect, a reboot, a relaunch,
  /// `focus(n)`) gets the same rule.
  func sessionRestorationActivity() -> JSONValue? {
    state.frontScene.flatMap { state.session(ofScene: $0.label) }?.restorationActivity
  }

  /// `willConnectTo`'s payload: `{session = {stateRestorationActivity = …}}` when the session
  /// has an activity (nil otherwise, so a connection without one logs no payload).
  func connectionSessionPayload() -> JSONValue? {
    sessionRestorationActivity().map { .object([("session", .object([("stateRestorationActivity", $0)]))]) }
  }

  /// What a connected scene's move from the foreground to the background saves, at `placement`
  /// (knob `restorationRequestPlacement`): scene apps ask `stateRestorationActivity(for:)` under
  /// the background-transition budget; sceneless apps preserve their controllers after
  /// `applicationDidEnterBackground` returns.
  func saveRestorationState(_ placement: Profile.RestorationRequestPlacement, scene: String? = nil) throws(ProcessEnded) {
    if profile.scenes, !state.scenes.isEmpty, placement == profile.restorationRequestPlacement {
      try requestRestorationActivity(scene: scene)
    }
    if placement == .afterDidEnterBackground { try preserveControllers() }
  }

  /// `stateRestorationActivity(for:)`: a table with a string `activityType` replaces the saved
  /// activity, nil (or no handler) deletes it; anything else is a crash, as a wrong type would be.
  private func requestRestorationActivity(scene: String?) throws(ProcessEnded) {
    scheduler.arm(.didEnterBackground(.stateRestorationActivity))
    defer { scheduler.disarmInnermost() }
    let (session, named) = inPlace { s in
      let session = (scene ?? s.frontScene?.label).flatMap { s.session(ofScene: $0) }
      return (session, s.sessionNamedInEvents(session))
    }
    guard let activity = try deliver(.stateRestorationActivity, "SceneDelegate", scene: scene) else {
      if session?.restorationActivity != nil {
        emit(.restorationChanged(.activityDeleted(why: "stateRestorationActivity(for:) returned nil", session: named)))
      }
      return
    }
    guard activity["activityType"]?.stringValue != nil else {
      try fail(.error(message: "stateRestorationActivity(for:) must return a table with a string activityType, or nil; got \(activity.canonicalText)",
                      traceback: ""),
               in: Callback.stateRestorationActivity.signature, target: "SceneDelegate")
    }
    emit(.restorationChanged(.activitySaved(activity, session: named)))
  }

  /// iOS ≥ `restoreInteractionMinIOS`: once per connection, right after the scene's first move
  /// into the foreground, with the session's activity (none: not called, knob `restoreInteractionWhenNil`).
  func offerRestoreInteraction() throws(ProcessEnded) {
    guard profile.ios >= profile.restoreInteractionMinIOS else { return }
    let activity = sessionRestorationActivity()
    guard activity != nil || profile.restoreInteractionWhenNil else { return }
    try deliver(.restoreInteractionStateWith, "SceneDelegate", payload: .object([("activity", activity ?? .null)]))
  }

  /// A force quit: each session's activity goes with the session (knob `forceQuitKeepsRestoration`),
  /// and the archive too (knob `legacyArchiveSurvivesForceQuit`).
  func forgetRestorationAtForceQuit() {
    for session in state.sessions where session.restorationActivity != nil && !profile.forceQuitKeepsRestoration {
      emit(.restorationChanged(.activityDeleted(why: "force quit: the scene session was discarded",
                                                session: state.sessionNamedInEvents(session))))
    }
    if state.restorationArchive != nil, !profile.legacyArchiveSurvivesForceQuit {
      emit(.restorationChanged(.archiveDeleted(why: "force quit")))
    }
  }

  /// A process that ends before its launch finished loses the archive, so a restoration that
  /// crashes is not tried again.
  func forgetArchiveIfLaunchUnfinished() {
    if launching, state.restorationArchive != nil {
      emit(.restorationChanged(.archiveDeleted(why: "the process ended before its launch finished")))
    }
  }

  // MARK: - View-controller restoration

  /// The should-save / should-restore pair UIKit calls, when the app implements both of one:
  /// the secure pair from iOS 13 (13.2 in Apple's releases; the profiles have whole versions),
  /// else the old pair (on iOS ≥ 13 with a deprecation note). Scene apps: none (knob
  /// `legacyRestorationInSceneApps`).
  private func restorationPair() -> (save: Callback, restore: Callback)? {
    guard !profile.scenes || profile.legacyRestorationInSceneApps else { return nil }
    func implemented(_ save: Callback, _ restore: Callback) -> Bool {
      driver.implements(save, target: "AppDelegate") && driver.implements(restore, target: "AppDelegate")
    }
    if profile.ios >= IOSRelease.firstWithSecureRestoration, implemented(.shouldSaveSecureApplicationState, .shouldRestoreSecureApplicationState) {
      return (.shouldSaveSecureApplicationState, .shouldRestoreSecureApplicationState)
    }
    guard implemented(.shouldSaveApplicationState, .shouldRestoreApplicationState) else { return nil }
    if profile.ios >= IOSRelease.firstWithSecureRestoration {
      note("restorationPairDeprecated",
           "application(_:shouldSaveApplicationState:) and application(_:shouldRestoreApplicationState:) are deprecated from iOS 13.2; UIKit still calls them when the secure pair is missing")
    }
    return (.shouldSaveApplicationState, .shouldRestoreApplicationState)
  }

  private func coderPayload(_ coder: JSONValue) -> JSONValue { .object([("coder", coder)]) }

  /// What a handler left in a coder; a coder the app never wrote is an empty table.
  private func coderContents(_ value: JSONValue?) -> JSONValue {
    switch value {
    case nil, .array([])?: return .object([])
    case let value?: return value
    }
  }

  /// Should-save → [willEncodeRestorableStateWith → encodeRestorableState per taking-part
  /// controller, parents first] → the archive is written. Only a `true` goes ahead.
  private func preserveControllers() throws(ProcessEnded) {
    guard let pair = restorationPair() else { return }
    guard try deliver(pair.save, "AppDelegate", payload: coderPayload(.object([]))) == .bool(true) else { return }
    let appCoder = coderContents(try deliver(.willEncodeRestorableStateWith, "AppDelegate", payload: coderPayload(.object([]))))
    var preserved: [PreservedController] = []
    for entry in state.preservationEntries(identifier: driver.restorationIdentifier(ofController:)) {
      guard let c = state.controllers[entry.id] else { continue }
      let coder = coderContents(try deliver(.encodeRestorableState, c.label, payload: coderPayload(.object([]))))
      preserved.append(PreservedController(className: c.className, identifier: entry.identifier, path: entry.path,
                                           place: entry.place, coder: coder))
    }
    let archive = RestorationArchive(appCoder: appCoder, selectedTab: state.frontWindow?.selectedTab ?? 0, controllers: preserved)
    emit(.restorationChanged(.archiveWritten(archive)))
  }

  /// Between willFinishLaunching and didFinishLaunching of a foreground launch with an archive:
  /// should-restore → if true, first every preserved controller is made, parents first
  /// (`viewControllerWithRestorationIdentifierPath`, a new one's `init(coder:)`), then their views
  /// load down the chain, then each decodes its state (`decodeRestorableState`); then
  /// `didDecodeRestorableStateWith` → `applicationFinishedRestoringState` per controller.
  func restoreControllers() throws(ProcessEnded) {
    guard let archive = state.restorationArchive, let pair = restorationPair() else { return }
    guard try deliver(pair.restore, "AppDelegate", payload: coderPayload(archive.appCoder)) == .bool(true) else { return }
    var restored: [(id: Int, coder: JSONValue)] = []
    // Without a window (a scene app, under legacyRestorationInSceneApps) only the application's coder is restored.
    if state.frontWindow != nil {
      for saved in archive.controllers {
        guard let id = try make(saved) else { break }
        restored.append((id, saved.coder))
      }
      if let w = state.frontWindow, w.container == .tabs, archive.selectedTab != w.selectedTab, w.tabs.indices.contains(archive.selectedTab) {
        selectTabSilently(archive.selectedTab)
      }
      for (id, _) in restored { try loadView(id) }
      for (id, coder) in restored { try deliver(.decodeRestorableState, state.label(id), payload: coderPayload(coder)) }
    }
    try deliver(.didDecodeRestorableStateWith, "AppDelegate", payload: coderPayload(archive.appCoder))
    for (id, _) in restored where state.controllers[id] != nil {
      try deliver(.applicationFinishedRestoringState, state.label(id))
    }
  }

  /// Makes one preserved controller (the path method, then its place in the window); nil (with a
  /// note) when it cannot be placed, which ends the restoration.
  private func make(_ saved: PreservedController) throws(ProcessEnded) -> Int? {
    let pathPayload = JSONValue.array(saved.path.map(JSONValue.string))
    let chosen = try deliver(.viewControllerWithRestorationIdentifierPath, "AppDelegate",
                             payload: .object([("path", pathPayload), ("coder", saved.coder)]))
    var className = saved.className
    switch chosen {
    case nil: break
    case let .string(name)?: className = name
    case let other?:
      try fail(.error(message: "application(_:viewControllerWithRestorationIdentifierPath:coder:) must return a controller class name or nil; got \(other.canonicalText)",
                      traceback: ""),
               in: Callback.viewControllerWithRestorationIdentifierPath.signature, target: "AppDelegate")
    }
    guard let id = try place(saved, as: className) else {
      note("restorationStopped", "\(saved.path.joined(separator: "/")) (\(className)) cannot be restored in this window; the controllers after it are not restored")
      return nil
    }
    return id
  }

  /// The controller at the saved place: the root the launch built, or a new instance pushed or
  /// presented there (`init(coder:)`). nil when the window has no such place.
  private func place(_ saved: PreservedController, as className: String) throws(ProcessEnded) -> Int? {
    guard let window = state.frontWindow else { return nil }
    if case let .root(tab, 0) = saved.place {
      // The launch built the root: it is restored in place, whatever the path method named.
      guard let root = window.tabs.indices.contains(tab) ? window.tabs[tab].first : nil,
            state.controllers[root]?.className == saved.className else { return nil }
      return root
    }
    guard driver.declares(controller: className) else { return nil }
    switch saved.place {
    case let .root(tab, position):
      guard window.tabs.indices.contains(tab), window.presented.isEmpty else { return nil }
      let stack = window.tabs[tab]
      guard window.navigation, stack.count == position else { return nil }
      if tab != window.selectedTab { selectTabSilently(tab) }
      let label = nextLabel(className)
      emit(.pushed(label, scene: state.sceneNamedInEvents))
    case let .presented(level, position, style, navigation):
      if position == 0 {
        guard window.presented.count == level else { return nil }
        let label = nextLabel(className)
        emit(.presented(label, style: style, navigation: navigation, scene: state.sceneNamedInEvents))
      } else {
        guard window.presented.count == level + 1, window.presented[level].navigation,
              window.presented[level].stack.count == position else { return nil }
        emit(.pushed(nextLabel(className), scene: state.sceneNamedInEvents))
      }
    }
    guard let id = state.topController else { return nil }
    try deliver(.`init`, state.label(id))
    return id
  }

  /// Restoration puts the tab bar back on a tab without an appearance (nothing is on screen yet).
  private func selectTabSilently(_ tab: Int) {
    guard let top = state.frontWindow?.tabs[tab].last else { return }
    emit(.tabSelected(index: tab + 1, controller: state.label(top), scene: state.sceneNamedInEvents))
  }
}

extension Simulator {
  /// What `willConnectTo` carries besides its URL: `options` (an object of connection options:
  /// what opened the app, or a new window's activity) and the session's restoration activity
  /// (`session`); nil when neither.
  func connectionPayload(options: JSONValue?) -> JSONValue? {
    let members = [options, connectionSessionPayload()].compactMap { $0?.objectValue }.flatMap { $0 }
    return members.isEmpty ? nil : .object(members)
  }
}
