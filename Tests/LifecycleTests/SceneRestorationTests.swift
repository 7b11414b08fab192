import JSON
import Testing
@testable import Lifecycle

// docs/model.md §17, scene apps: the restoration activity asked as a scene enters the background,
// handed back in willConnectTo's session when the session survived, restoreInteractionStateWith
// from iOS 15. Each sequence is pinned whole (the harness checks replay). Sources: docs/model.md's keys.

private let AD = "AppDelegate.", SD = "SceneDelegate."
private let article = JSONValue.object([("activityType", .string("com.example.reader.article")),
                                        ("userInfo", .object([("id", .int(7))]))])
private let jetsam = "terminated jetsam: vm-pageshortage: the system reclaimed the suspended app's memory"

/// A scene app whose delegate returns `article` for its restoration activity.
private func readerApp() -> ScriptedApp {
  let app = ScriptedApp()
  app.returns["stateRestorationActivity"] = article
  return app
}

/// The scene cold launch of `StandardLaunch.sceneCalls` on a session whose activity reaches
/// willConnectTo: from iOS 15 restoreInteractionStateWith follows sceneWillEnterForeground.
func restoredSceneLaunch(ios: Int, newSession: Bool = false, discarded: Bool = false, instance: Int,
                         interaction: Bool) -> [String] {
  var calls = StandardLaunch.sceneCalls(ios: ios, newSession: newSession, discarded: discarded, instance: instance)
  if interaction, let i = calls.firstIndex(of: SD + "sceneWillEnterForeground(_:)") {
    calls.insert(SD + "scene(_:restoreInteractionStateWith:)", at: i + 1)
  }
  return calls
}

extension Harness {
  /// The payload of the latest `cb` callback (nil: none, or it had no payload).
  func payload(of cb: Callback) -> JSONValue? {
    for e in allEvents.reversed() {
      if case let .callbackDelivered(c, _, _, _, arguments) = e.body, c == cb { return arguments.payload }
    }
    return nil
  }

  /// The restoration changes recorded so far, in order.
  var restorationChanges: [RestorationChange] {
    allEvents.compactMap { if case let .restorationChanged(change) = $0.body { return change }; return nil }
  }
}

@Suite struct SceneRestorationTests {
  /// Launches, goes home (claimed), and lets memory pressure reclaim the suspended app.
  private func savedThenReclaimed(ios: Int, app: ScriptedApp = readerApp(),
                                  knobs: (inout Profile) -> Void = { _ in }) throws -> Harness {
    let h = Harness(ios: ios, app: app, knobs: knobs)
    try h.launch()
    try h.perform(.home)
    h.expectHome()
    try h.perform(.memoryPressure)
    h.expectCalls([])
    h.expectSystem([jetsam])
    return h
  }

  @Test("§17 home asks stateRestorationActivity(for:) after sceneWillResignActive, before sceneDidEnterBackground; the table is saved (D1, S101, S102)",
        arguments: [13, 17, 26])
  func savedAtHome(ios: Int) throws {
    let h = Harness(ios: ios, app: readerApp())
    try h.launch()
    try h.perform(.home)
    h.expectCalls([SD + "sceneWillResignActive(_:)", SD + "stateRestorationActivity(for:)", SD + "sceneDidEnterBackground(_:)",
                   "NoteList#1.traitCollectionDidChange(_:)", "NoteList#1.traitCollectionDidChange(_:)"])
    h.expectNotifications(Posted.home(scenes: true))
    h.expectSystem(["suspended"])
    #expect(h.restorationChanges == [.activitySaved(article)])
    #expect(h.sim.state.restorationActivity == article)
  }

  @Test("§17 after jetsam the kept session's activity reaches willConnectTo; iOS 13–14 call no restoreInteractionStateWith (S102, T33, S103)",
        arguments: [13, 14])
  func restoredBefore15(ios: Int) throws {
    let h = try savedThenReclaimed(ios: ios)
    try h.perform(.launch(url: nil))
    h.expectCalls(restoredSceneLaunch(ios: ios, instance: 2, interaction: false))
    h.expectNotifications(StandardLaunch.sceneNotifications)
    h.expectSystem(["started foreground, background"])
    #expect(h.payload(of: .willConnectTo) == .object([("session", .object([("stateRestorationActivity", article)]))]))
  }

  @Test("§17 iOS ≥ 15: restoreInteractionStateWith with the activity, right after sceneWillEnterForeground (S103, S104, D1)",
        arguments: [15, 17, 26])
  func restoredFrom15(ios: Int) throws {
    let h = try savedThenReclaimed(ios: ios)
    try h.perform(.launch(url: nil))
    h.expectCalls(restoredSceneLaunch(ios: ios, instance: 2, interaction: true))
    h.expectNotifications(StandardLaunch.sceneNotifications)
    h.expectSystem(["started foreground, background"])
    #expect(h.payload(of: .restoreInteractionStateWith) == .object([("activity", article)]))
    // Once per connection: back from the background later, no second offer.
    try h.perform(.home, .launch(url: nil))
    h.expectCalls([SD + "sceneWillResignActive(_:)", SD + "stateRestorationActivity(for:)", SD + "sceneDidEnterBackground(_:)",
                   "NoteList#2.traitCollectionDidChange(_:)", "NoteList#2.traitCollectionDidChange(_:)",
                   SD + "sceneWillEnterForeground(_:)", SD + "sceneDidBecomeActive(_:)"])
    h.expectNotifications(Posted.home(scenes: true) + Posted.back(scenes: true))
    h.expectSystem(["suspended", "resumed"])
  }

  @Test("§17 knob restoreInteractionMinIOS = 13 gives iOS 13 the call (the method's page says 13.0; S103)")
  func minIOSKnob() throws {
    let h = try savedThenReclaimed(ios: 13) { $0.restoreInteractionMinIOS = 13 }
    try h.perform(.launch(url: nil))
    h.expectCalls(restoredSceneLaunch(ios: 13, instance: 2, interaction: true))
    h.expectNotifications(StandardLaunch.sceneNotifications)
    h.expectSystem(["started foreground, background"])
  }

  @Test("§17 a force quit discards the session and its activity: didDiscardSceneSessions → configurationForConnecting → willConnectTo without one (S104, S109, S19)",
        arguments: [13, 17])
  func forceQuitDeletes(ios: Int) throws {
    let h = Harness(ios: ios, app: readerApp())
    try h.launch()
    try h.perform(.home)
    h.expectHome()
    try h.perform(.forceQuit)
    h.expectCalls([])
    h.expectSystem(["terminated user: force quit from the app switcher while suspended"])
    try h.perform(.launch(url: nil))
    h.expectStandardLaunch(instance: 2, newSession: true, discarded: true)
    #expect(h.payload(of: .willConnectTo) == nil)
    #expect(h.restorationChanges == [.activitySaved(article), .activityDeleted(why: "force quit: the scene session was discarded")])
  }

  @Test("§17 a system disconnect keeps the session and its activity: the reconnection's willConnectTo gets it, iOS ≥ 15 restoreInteractionStateWith too (S102, S18, §14)",
        arguments: [14, 17])
  func restoredAfterDisconnect(ios: Int) throws {
    let h = Harness(ios: ios, app: readerApp())
    try h.launch()
    try h.perform(.home)
    h.expectHome()
    try h.perform(.disconnectScene(1))
    h.expectCalls([SD + "sceneDidDisconnect(_:)"])
    h.expectNotifications(["UIScene.didDisconnectNotification"])
    h.expectSystem(["resumed", "suspended"])
    try h.perform(.launch(url: nil))
    h.expectCalls(Array(restoredSceneLaunch(ios: ios, instance: 2, interaction: ios >= 15).dropFirst(2)))
    h.expectNotifications(Array(StandardLaunch.sceneNotifications.dropFirst()))
    h.expectSystem(["resumed"])
    #expect(h.payload(of: .willConnectTo) == .object([("session", .object([("stateRestorationActivity", article)]))]))
  }

  @Test("§17 a reboot keeps the session and its activity; nothing connects before the first unlock, and the launch after it restores (S102, §14)")
  func restoredAfterReboot() throws {
    let h = Harness(ios: 17, app: readerApp())
    try h.launch()
    try h.perform(.home)
    h.expectHome()
    try h.perform(.reboot, .unlock, .launch(url: nil))
    h.expectCalls(restoredSceneLaunch(ios: 17, instance: 2, interaction: true))
    h.expectNotifications(StandardLaunch.sceneNotifications)
    h.expectSystem(["terminated reboot: the device restarted", "started foreground, background"])
    #expect(h.payload(of: .willConnectTo) == .object([("session", .object([("stateRestorationActivity", article)]))]))
  }

  @Test("§17 knob forceQuitKeepsRestoration = true: a new session after the force quit, yet the activity comes back (T104, iOS 15)")
  func forceQuitKeepsKnob() throws {
    let h = Harness(ios: 15, app: readerApp()) { $0.forceQuitKeepsRestoration = true }
    try h.launch()
    try h.perform(.home)
    h.expectHome()
    try h.perform(.forceQuit)
    h.expectSystem(["terminated user: force quit from the app switcher while suspended"])
    try h.perform(.launch(url: nil))
    h.expectCalls(restoredSceneLaunch(ios: 15, newSession: true, discarded: true, instance: 2, interaction: true))
    h.expectNotifications(StandardLaunch.sceneNotifications)
    h.expectSystem(["started foreground, background"])
    #expect(h.payload(of: .willConnectTo) == .object([("session", .object([("stateRestorationActivity", article)]))]))
  }

  @Test("§17 nil deletes the saved activity: after the next jetsam willConnectTo has none and no restoreInteractionStateWith (D1, S102)")
  func nilDeletes() throws {
    let app = readerApp()
    let h = Harness(ios: 17, app: app)
    try h.launch()
    try h.perform(.home)
    h.expectHome()
    try h.perform(.launch(url: nil))
    h.expectCalls([SD + "sceneWillEnterForeground(_:)", SD + "sceneDidBecomeActive(_:)"])
    h.expectNotifications(Posted.back(scenes: true))
    h.expectSystem(["resumed"])
    app.returns["stateRestorationActivity"] = nil
    app.handlers["stateRestorationActivity"] = { _ in }  // implemented, returns nil
    try h.perform(.home, .memoryPressure, .launch(url: nil))
    h.expectCalls([SD + "sceneWillResignActive(_:)", SD + "stateRestorationActivity(for:)", SD + "sceneDidEnterBackground(_:)",
                   "NoteList#1.traitCollectionDidChange(_:)", "NoteList#1.traitCollectionDidChange(_:)"]
                  + StandardLaunch.sceneCalls(ios: 17, newSession: false, instance: 2))
    h.expectNotifications(Posted.home(scenes: true) + StandardLaunch.sceneNotifications)
    h.expectSystem(["suspended", jetsam, "started foreground, background"])
    #expect(h.restorationChanges.last == .activityDeleted(why: "stateRestorationActivity(for:) returned nil"))
    #expect(h.payload(of: .willConnectTo) == nil)
  }

  @Test("§17 never on resign-active-only interruptions (call declined, alert, the switcher back to the app); once for the switcher to another app (D1, S101)")
  func notOnInterruptions() throws {
    let h = Harness(ios: 17, app: readerApp())
    try h.launch()
    try h.perform(.interrupt(.call), .endInterrupt(.declined), .interrupt(.alert), .endInterrupt(.dismissed),
                  .appSwitcher, .switchTo(other: false))
    h.expectCalls(Array(repeating: [SD + "sceneWillResignActive(_:)", SD + "sceneDidBecomeActive(_:)"], count: 3).flatMap { $0 })
    h.expectNotifications(Array(repeating: Posted.resignActive(scenes: true) + Posted.becomeActive(scenes: true), count: 3).flatMap { $0 })
    try h.perform(.appSwitcher, .switchTo(other: true))
    h.expectCalls([SD + "sceneWillResignActive(_:)", SD + "stateRestorationActivity(for:)", SD + "sceneDidEnterBackground(_:)",
                   "NoteList#1.traitCollectionDidChange(_:)", "NoteList#1.traitCollectionDidChange(_:)"])
    h.expectNotifications(Posted.home(scenes: true))
    h.expectSystem(["suspended"])
    #expect(h.restorationChanges == [.activitySaved(article)])
  }

  @Test("§17 knob restorationRequestPlacement = afterDidEnterBackground: after sceneDidEnterBackground and its notifications, before the snapshot (S102, T128)")
  func placementAfter() throws {
    let h = Harness(ios: 17, app: readerApp()) { $0.restorationRequestPlacement = .afterDidEnterBackground }
    try h.launch()
    try h.perform(.home)
    h.expectCalls([SD + "sceneWillResignActive(_:)", SD + "sceneDidEnterBackground(_:)", SD + "stateRestorationActivity(for:)",
                   "NoteList#1.traitCollectionDidChange(_:)", "NoteList#1.traitCollectionDidChange(_:)"])
    h.expectNotifications(Posted.home(scenes: true))
    h.expectSystem(["suspended"])
    #expect(h.sim.state.restorationActivity == article)
  }

  @Test("§17 knob restoreInteractionWhenNil = true: iOS 15 offers restoreInteractionStateWith with nil at a first launch (D1)")
  func whenNilKnob() throws {
    let h = Harness(ios: 15, app: readerApp()) { $0.restoreInteractionWhenNil = true }
    try h.perform(.launch(url: nil))
    h.expectCalls(restoredSceneLaunch(ios: 15, newSession: true, instance: 1, interaction: true))
    h.expectNotifications(StandardLaunch.sceneNotifications)
    h.expectSystem(["started foreground, background"])
    #expect(h.payload(of: .restoreInteractionStateWith) == .object([("activity", .null)]))
  }

  @Test("§17 stateRestorationActivity(for:) is inside the 5 s background-transition budget: blocking 6 s is a watchdog kill at 5 s (S26)")
  func budget() throws {
    let app = readerApp()
    app.handlers["stateRestorationActivity"] = { sim in try sim.work(us: 6_000_000) }
    let h = Harness(ios: 17, app: app)
    try h.launch()
    let homeAt = h.sim.clock
    try h.perform(.home)
    h.expectCalls([SD + "sceneWillResignActive(_:)", SD + "stateRestorationActivity(for:)"])
    h.expectNotifications(Posted.resignActive(scenes: true))
    h.expectSystem(["terminated watchdog 0x8badf00d: stateRestorationActivity(for:) did not return: exhausted real (wall clock) time allowance of 5.00 seconds"])
    #expect(h.sim.clock == homeAt + 5_000_000)
    #expect(h.restorationChanges.isEmpty)
  }

  @Test("§17 an activity without a string activityType is a crash, as the wrong type would be in Swift (S101)")
  func wrongReturnCrashes() throws {
    let app = ScriptedApp()
    app.returns["stateRestorationActivity"] = .object([("userInfo", .int(1))])
    let h = Harness(ios: 17, app: app)
    try h.launch()
    try h.perform(.home)
    h.expectCalls([SD + "sceneWillResignActive(_:)", SD + "stateRestorationActivity(for:)"])
    h.expectNotifications(Posted.resignActive(scenes: true))
    h.expectSystem(["crash in stateRestorationActivity(for:) on SceneDelegate: stateRestorationActivity(for:) must return a table with a string activityType, or nil; got {\"userInfo\":1}"])
  }
}
