import Testing
@testable import Lifecycle

// Three sequences and one default an audit found wrong, pinned whole on the profiles where they
// differ: protected data coming back after an ordinary lock (docs/model.md §12), a scene app's
// launch options (§2), and whether processing tasks run after a force quit (§16). The fourth,
// the order of view-controller restoration (§17), is ControllerRestorationTests' roundTrip.
// Last, sessions discarded while the app was not running are reported at whatever launch comes
// next (§2), where the model held them back until a scene connected.

private let AD = "AppDelegate.", SD = "SceneDelegate."
private let available = AD + "applicationProtectedDataDidBecomeAvailable(_:)"
private let availableNotification = "UIApplication.protectedDataDidBecomeAvailableNotification"

@Suite struct CorrectedSequencesTests {
  @Test("§12 after an ordinary lock, protected data coming back is queued for the suspended app: applicationProtectedDataDidBecomeAvailable comes before the foreground callbacks at unlock (App Programming Guide, S37)",
        arguments: PlatformUnderTest.all)
  func protectedDataQueuedAfterLock(_ p: PlatformUnderTest) throws {
    let h = try p.launched()
    try h.perform(.lock)
    h.expectHome()
    try h.perform(.advance(us: 10_000_000))  // the lock's delay passes while the app is suspended
    h.expectCalls([])
    h.expectNotifications([])
    h.expectSystem([])
    #expect(!h.sim.state.protectedDataAvailable && !h.sim.state.protectedDataAvailablePending)
    try h.perform(.unlock)
    h.expectCalls([available] + Opened.back(scenes: p.scenes, inserting: []))
    h.expectNotifications([availableNotification] + Posted.back(scenes: p.scenes))
    h.expectSystem(["resumed"])
    #expect(h.sim.state.protectedDataAvailable && !h.sim.state.protectedDataAvailablePending)
  }

  @Test("§12 unlocked before the lock's delay, protected data never went: nothing is queued (S37)",
        arguments: [PlatformUnderTest(ios: 17, scenes: true), PlatformUnderTest(ios: 17, scenes: false)])
  func unlockWithinTheDelayQueuesNothing(_ p: PlatformUnderTest) throws {
    let h = try p.launched()
    try h.perform(.lock)
    h.expectHome()
    try h.perform(.advance(us: 9_000_000), .unlock)
    h.expectSystem(["resumed"])
    h.expectCalls(Opened.back(scenes: p.scenes, inserting: []))
    h.expectNotifications(Posted.back(scenes: p.scenes))
  }

  @Test("§12 an app locked away from the screen gets the queued callback at its next return, first (S37)",
        arguments: [PlatformUnderTest(ios: 17, scenes: true), PlatformUnderTest(ios: 12, scenes: false)])
  func queuedUntilTheNextReturn(_ p: PlatformUnderTest) throws {
    let h = try p.launched()
    try h.perform(.home)
    h.expectHome()
    try h.perform(.lock, .advance(us: 10_000_000), .unlock)
    h.expectCalls([])
    h.expectNotifications([])
    h.expectSystem([])
    #expect(h.sim.state.protectedDataAvailablePending)
    try h.perform(.launch(url: nil))
    h.expectCalls([available] + Opened.back(scenes: p.scenes, inserting: []))
    h.expectNotifications([availableNotification] + Posted.back(scenes: p.scenes))
    h.expectSystem(["resumed"])
  }

  @Test("§2 a URL that launches a scene app reaches only willConnectTo: its launch options are nil; a sceneless app's carry it (S-dfl, S36)",
        arguments: PlatformUnderTest.all)
  func launchOptionsOfAURLLaunch(_ p: PlatformUnderTest) throws {
    let h = Harness(ios: p.ios, scenes: p.scenes)
    try h.perform(.openURL("notes://1"))
    var calls = p.scenes ? StandardLaunch.sceneCalls(ios: p.ios) : StandardLaunch.scenelessCalls(ios: p.ios)
    if !p.scenes { calls.insert(AD + "application(_:open:options:)", at: calls.count - 2) }
    h.expectCalls(calls)
    h.expectNotifications(p.scenes ? StandardLaunch.sceneNotifications : StandardLaunch.scenelessNotifications)
    h.expectSystem(StandardLaunch.system(h.sim.profile))
    let withURL = h.allEvents.compactMap { e -> String? in
      guard case let .callbackDelivered(cb, target, _, _, arguments) = e.body, let url = arguments.url else { return nil }
      return "\(target).\(cb.signature) \(url)"
    }
    #expect(withURL == (p.scenes ? [SD + "scene(_:willConnectTo:options:) notes://1"]
                                 : [AD + "application(_:willFinishLaunchingWithOptions:) notes://1",
                                    AD + "application(_:didFinishLaunchingWithOptions:) notes://1",
                                    AD + "application(_:open:options:) notes://1"]))
  }

  @Test("§16 processingRunsAfterForceQuit is false before iOS 18 and true from 18 (W2, F110, F111)",
        arguments: IOSRelease.versions)
  func processingAfterForceQuitDefault(ios: Int) {
    #expect(Profile(ios: ios).processingRunsAfterForceQuit == (ios >= 18))
  }

  @Test("§16 after a force quit a processing request waits for the user before iOS 18 and runs from iOS 18, by default, with and without scenes (W2, F110, F111)",
        arguments: [PlatformUnderTest(ios: 17, scenes: true), PlatformUnderTest(ios: 17, scenes: false), PlatformUnderTest(ios: 18, scenes: true),
                    PlatformUnderTest(ios: 18, scenes: false), PlatformUnderTest(ios: 26, scenes: true)])
  func processingAfterForceQuit(_ p: PlatformUnderTest) throws {
    let app = BG.app { sim in try sim.appSetTaskCompleted(BG.cleanup, true) }
    let submit: ScriptedApp.Handler = { sim in try sim.appSubmit(BGTaskRequest(identifier: BG.cleanup, kind: .processing)) }
    app.handlers[p.scenes ? "sceneDidEnterBackground" : "applicationDidEnterBackground"] = submit
    let h = try p.launched(app: app)
    try h.perform(.home, .appSwitcher, .forceQuit)
    h.expectHome(system: ["suspended", "terminated user: force quit from the app switcher while suspended"])
    try h.perform(.bgTask(BG.cleanup))
    let runs = p.ios >= 18
    h.expectSystem(runs ? BG.backgroundLaunchSystem(p) + ["suspended"]
                        : ["note bgTaskHeld: the user force quit the app: the processing task \"com.example.cleanup\" waits until the user opens it again"])
    h.expectCalls(runs ? BG.backgroundLaunch(p, instance: 2, discarded: true) + [BG.launchHandler(BG.cleanup)] : [])
    h.expectNotifications(runs ? BG.backgroundLaunchNotifications(p) : [])
    #expect(h.sim.state.backgroundWork.pending.map(\.request.identifier) == (runs ? [] : [BG.cleanup]))
  }

  @Test("§2 sessions discarded while the app was not running are reported just after its next launch, a background one included; the user's launch then makes a new session without reporting them again (S19)",
        arguments: [18, 26])
  func discardedSessionsAtABackgroundLaunch(ios: Int) throws {
    let app = BG.app { sim in try sim.appSetTaskCompleted(BG.cleanup, true) }
    app.handlers["sceneDidEnterBackground"] = { sim in try sim.appSubmit(BGTaskRequest(identifier: BG.cleanup, kind: .processing)) }
    let h = try PlatformUnderTest(ios: ios, scenes: true).launched(app: app)
    try h.perform(.home, .appSwitcher, .forceQuit)
    h.expectHome(system: ["suspended", "terminated user: force quit from the app switcher while suspended"])
    try h.perform(.bgTask(BG.cleanup))
    h.expectCalls([AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)",
                   AD + "application(_:didDiscardSceneSessions:)", BG.launchHandler(BG.cleanup)])
    h.expectNotifications(["UIApplication.didFinishLaunchingNotification"])
    h.expectSystem(["started background, background", "suspended"])
    try h.perform(.launch(url: nil))
    h.expectCalls(Array(StandardLaunch.sceneCalls(ios: ios, newSession: true, instance: 2).dropFirst(2)))
    h.expectNotifications(Array(StandardLaunch.sceneNotifications.dropFirst()))
    h.expectSystem(["resumed"])
  }

  @Test("§2 a prewarm that runs didFinishLaunching (knob prewarmRunsDidFinish) reports sessions discarded at a force quit right after it; the tap does not again (S19, F5)")
  func discardedSessionsAtAPrewarm() throws {
    let h = try PlatformUnderTest(ios: 17, scenes: true).launched(knobs: { $0.prewarmRunsDidFinish = .always })
    try h.perform(.home, .appSwitcher, .forceQuit)
    h.expectHome(system: ["suspended", "terminated user: force quit from the app switcher while suspended"])
    try h.perform(.prewarm)
    h.expectCalls([AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)",
                   AD + "application(_:didDiscardSceneSessions:)"])
    h.expectNotifications(["UIApplication.didFinishLaunchingNotification"])
    h.expectSystem(["started prewarm, background"])
    try h.perform(.launch(url: nil))
    h.expectCalls(Array(StandardLaunch.sceneCalls(ios: 17, instance: 2).dropFirst(2)))
    h.expectNotifications(Array(StandardLaunch.sceneNotifications.dropFirst()))
    h.expectSystem(["continued background"])
  }
}
