import JSON

// What the system does on its own (docs/model.md §14): it disconnects a background scene to
// reclaim memory while the process lives, reclaims a background app under critical memory
// pressure, kills an app about to be suspended while it holds a shared file lock (0xdead10cc),
// delivers significant time changes (queued for a suspended app), and restarts the device
// (protected data unavailable until the first unlock).

/// Why `disconnect_scene(n)` cannot be performed now (pure, like `InputRules`).
enum SystemEndingRules {
  static func whyNotDisconnect(scene n: Int, _ s: LifecycleState, scenes: Bool) -> String? {
    guard scenes else { return "a sceneless app has no scene to disconnect" }
    guard s.process == .running || s.process == .suspended, let connected = s.frontScene else { return "no scene is connected" }
    let label = SceneState.label(number: n)
    guard let scene = s.scenes.first(where: { $0.label == label }) else {
      return "\(label) is not connected (the connected scene is \(connected.label))"
    }
    guard scene.activation == .background else { return "\(label) is in the foreground; UIKit disconnects only background scenes" }
    return nil
  }
}

extension Simulator {
  // MARK: - Scenario verbs

  /// `disconnect_scene(n)`: [resume] → sceneDidDisconnect → its notification → the scene, its
  /// delegate and its controllers are released (no disappear callbacks). The session is kept;
  /// the process is suspended again when nothing keeps it running.
  func disconnectScene(_ n: Int) throws(ProcessEnded) {
    let scene = SceneState.label(number: n)
    guard state.scenes.contains(where: { $0.label == scene }) else { return }
    if state.process == .suspended { try resumeInBackground() }
    try deliver(.sceneDidDisconnect, "SceneDelegate", scene: scene)
    try post("UIScene.didDisconnectNotification")
    emit(.sceneDisconnected(scene: scene))
  }

  /// `memory_pressure("critical")`: a suspended or prewarmed app as `memory_pressure()`, and an
  /// app running in the background too, with no callback; a foreground app is never reclaimed.
  func criticalMemoryPressure() throws(ProcessEnded) {
    switch state.process {
    case .suspended, .prewarmed:
      try run(.memoryPressure)
    case .running where state.applicationState == .background:
      terminate(Termination(reason: .jetsam, code: nil,
                            description: "vm-pageshortage: the system reclaimed the memory of the app running in the background"))
    case .running:
      note("notReclaimed", "memory pressure never reclaims the foreground app; this one is \(state.appState.rawValue)")
    case .notRunning:
      note("notReclaimed", "memory pressure reclaims running apps; this one is not_running")
    }
  }

  /// `time_change()`: a running app gets the notification, then the delegate call; a suspended
  /// app gets it later (knob `queuedTimeChangeDelivery`), once however many came; otherwise it is lost.
  func timeChange() throws(ProcessEnded) {
    switch state.process {
    case .running:
      try deliverTimeChange()
    case .suspended:
      let when = profile.queuedTimeChangeDelivery == .nextForeground ? "comes to the foreground" : "runs"
      note("timeChangeQueued", "the app is suspended: the time change is delivered when it next \(when), once however many come")
    case .prewarmed:
      note("timeChangeLost", "the prewarmed app has not launched: the time change is not delivered (it reads the clock at launch)")
    case .notRunning:
      note("timeChangeLost", "the app is not running: the time change is not delivered")
    }
  }

  /// `reboot()`: the process ends with no callback; the device is locked (the input's fold) and
  /// protected data is unavailable until the first unlock.
  func reboot() {
    if state.process != .notRunning {
      terminate(Termination(reason: .reboot, code: nil, description: "the device restarted"))
    }
    if state.protectedDataAvailable { emit(.protectedDataChanged(available: false)) }
  }

  // MARK: - Hooks into the sequences

  /// A suspended process runs again for work in the background: resumed, then what was queued
  /// for it that may run in the background.
  func resumeInBackground() throws(ProcessEnded) {
    emit(.resumed)
    try deliverQueued(foreground: false)
  }

  /// What the process received while suspended, delivered when it runs again: first protected
  /// data coming back at an unlock (foreground only), then the time change (at a
  /// foreground resume; in the background too with `queuedTimeChangeDelivery = nextRun`).
  func deliverQueued(foreground: Bool) throws(ProcessEnded) {
    if foreground, state.protectedDataAvailablePending {
      try deliver(.applicationProtectedDataDidBecomeAvailable, "AppDelegate")
      try post("UIApplication.protectedDataDidBecomeAvailableNotification")
    }
    if state.timeChangePending, foreground || profile.queuedTimeChangeDelivery == .nextRun {
      try deliverTimeChange()
    }
  }

  /// The notification first, then the app delegate (scene apps too).
  private func deliverTimeChange() throws(ProcessEnded) {
    try post("UIApplication.significantTimeChangeNotification")
    try deliver(.applicationSignificantTimeChange, "AppDelegate")
  }

  /// At the instant the process would be suspended: holding a lock in a shared container (and
  /// no debugger attached) is the 0xdead10cc kill, with no callback. True when it was killed.
  func killedForLockedFile() -> Bool {
    guard !profile.debuggerAttached, let lock = state.heldLocks.filter(\.value).keys.sorted().first else { return false }
    terminate(Termination(reason: .suspendedWithLockedFile, code: "0xdead10cc",
                          description: "the app was about to be suspended while holding the file lock \"\(lock)\" in a shared container"))
    return true
  }

  // MARK: - App calls

  /// `store` when the key's class is available now; else a note and nil (the app's `store` returns false).
  func storeIfAvailable(key: String, value: JSONValue?, protection: DataProtection, at: String?) -> Int? {
    guard state.isAvailable(protection) else {
      let when = state.firstUnlockPending ? "before the first unlock" : "while the device is locked"
      note("storeUnavailable", "store(\"\(key)\") refused: \(protection.rawValue) data is unavailable \(when)")
      return nil
    }
    emit(.appCalled(.store(key: key, value: value, protection: protection), at: at))
    return 1
  }

  /// `release_lock(name)`; a lock not held does nothing but a note.
  func releaseLock(_ name: String, at: String?) {
    guard state.heldLocks[name] != nil else {
      note("releaseLockIgnored", "no lock \"\(name)\" is held: the call does nothing")
      return
    }
    emit(.appCalled(.releaseLock(name: name), at: at))
  }
}
