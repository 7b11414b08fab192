import JSON
import Testing
@testable import Lifecycle

// docs/model.md §14: the system disconnecting a scene, reclaiming a background app, the
// 0xdead10cc kill, significant time changes, and protected data before the first unlock.
// Each sequence is pinned whole (callbacks, notifications, system events; the harness checks
// replay), for scene and sceneless apps where both apply. Sources are docs/model.md's keys.

private let AD = "AppDelegate.", SD = "SceneDelegate."

extension Simulator {
  fileprivate func holdLock(_ name: String, shared: Bool) throws(ProcessEnded) {
    do { try handle(.holdLock(name: name, shared: shared)) } catch { throw ProcessEnded() }
  }
  fileprivate func releaseLock(_ name: String) throws(ProcessEnded) {
    do { try handle(.releaseLock(name)) } catch { throw ProcessEnded() }
  }
  /// `store(key, value, {protection=})`: true when written.
  fileprivate func store(_ key: String, _ value: JSONValue, _ protection: DataProtection) throws(ProcessEnded) -> Bool {
    do { return try handle(.store(key: key, value: value, protection: protection)) != nil } catch { throw ProcessEnded() }
  }
}

/// The callbacks and notifications (`post …`) since event `from`, interleaved in order: the
/// harness claims the two kinds separately, so an order between them is checked with this.
private func interleaved(_ h: Harness, from: Int) -> [String] {
  h.allEvents[from...].compactMap { Harness.call($0.body) ?? Harness.notification($0.body).map { "post " + $0 } }
}

/// The sceneless launch's calls from applicationWillEnterForeground: what a resumed sceneless app gets.
private let scenelessBack = [AD + "applicationWillEnterForeground(_:)", AD + "applicationDidBecomeActive(_:)"]

/// A scene connection into an existing process (no willFinish/didFinish, no configurationForConnecting).
private func reconnect(ios: Int, instance: Int, newSession: Bool = false) -> [String] {
  Array(StandardLaunch.sceneCalls(ios: ios, newSession: newSession, instance: instance).dropFirst(2))
}
private let reconnectNotifications = Array(StandardLaunch.sceneNotifications.dropFirst())

@Suite struct DisconnectSceneTests {
  @Test("§14 disconnect_scene of a suspended scene: resume, sceneDidDisconnect, release, suspension; the next launch reconnects the kept session (S18, S1, T70, T71)",
        arguments: [13, 17, 26])
  func suspendedSceneIsDisconnectedAndReconnected(ios: Int) throws {
    let h = Harness(ios: ios, scenes: true)
    try h.launch()
    try h.perform(.home)
    h.expectHome()
    try h.perform(.disconnectScene(1))
    h.expectCalls([SD + "sceneDidDisconnect(_:)"])  // no viewWillDisappear/viewDidDisappear: released as is
    h.expectNotifications(["UIScene.didDisconnectNotification"])
    h.expectSystem(["resumed", "suspended"])
    #expect(h.sim.state.sessions == [SceneSession(number: 1)] && h.sim.state.frontWindow == nil)
    try h.perform(.launch(url: nil))
    h.expectCalls(reconnect(ios: ios, instance: 2))  // a new root, Scene#2, same session
    h.expectNotifications(reconnectNotifications)
    h.expectSystem(["resumed"])
    #expect(h.sim.state.scenes.map(\.label) == ["Scene#2"] && h.sim.state.sessions == [SceneSession(number: 1, scene: "Scene#2")])
  }

  @Test("§14 disconnect_scene while the app runs in the background: no resume, and the suspension waits for its task (S18, S5)")
  func runningSceneKeepsItsTask() throws {
    let app = ScriptedApp()
    app.handlers["sceneDidEnterBackground"] = { sim in _ = try sim.beginBackgroundTask(name: "upload") }
    let h = Harness(ios: 17, scenes: true, app: app)
    try h.launch()
    try h.perform(.home)
    h.expectHome(system: [])
    try h.perform(.disconnectScene(1))
    h.expectCalls([SD + "sceneDidDisconnect(_:)"])
    h.expectNotifications(["UIScene.didDisconnectNotification"])
    h.expectSystem([])
    #expect(h.sim.state.process == .running && h.sim.state.scenes.isEmpty)
  }

  @Test("§14 disconnect_scene refuses a sceneless app, a foreground scene and a scene that is not connected")
  func refusals() throws {
    let sceneless = Harness(ios: 17, scenes: false)
    try sceneless.launch()
    try sceneless.perform(.home)
    sceneless.expectHome()
    #expect(throws: ScenarioError("disconnect_scene(): a sceneless app has no scene to disconnect (state: suspended)")) {
      try sceneless.perform(.disconnectScene(1))
    }
    let h = Harness(ios: 17, scenes: true)
    try h.launch()
    #expect(throws: ScenarioError("disconnect_scene(): Scene#1 is in the foreground; UIKit disconnects only background scenes (state: active)")) {
      try h.perform(.disconnectScene(1))
    }
    try h.perform(.home)
    h.expectHome()
    #expect(throws: ScenarioError("disconnect_scene(): Scene#2 is not connected (the connected scene is Scene#1) (state: suspended)")) {
      try h.perform(.disconnectScene(2))
    }
    try h.perform(.disconnectScene(1))
    h.skipRemainingEvents()  // pinned above
    #expect(throws: ScenarioError("disconnect_scene(): no scene is connected (state: suspended)")) {
      try h.perform(.disconnectScene(1))
    }
  }
}

@Suite struct CriticalMemoryPressureTests {
  @Test("§14 memory_pressure(\"critical\") reclaims an app running in the background, no callbacks; the scene session survives (S25, S5, T33)",
        arguments: [PlatformUnderTest(ios: 17, scenes: true), PlatformUnderTest(ios: 17, scenes: false)])
  func backgroundAppIsReclaimed(_ p: PlatformUnderTest) throws {
    let app = ScriptedApp()
    let keepRunning: ScriptedApp.Handler = { sim in _ = try sim.beginBackgroundTask(name: "upload") }
    app.handlers["sceneDidEnterBackground"] = keepRunning
    app.handlers["applicationDidEnterBackground"] = keepRunning
    let h = Harness(ios: p.ios, scenes: p.scenes, app: app)
    try h.launch()
    try h.perform(.home)
    h.expectHome(system: [])
    try h.perform(.memoryPressure)  // plain pressure leaves a running app alone, as before
    h.expectSystem(["note notReclaimed: memory pressure reclaims suspended apps; this one is background"])
    try h.perform(.criticalMemoryPressure)
    h.expectCalls([])
    h.expectNotifications([])
    h.expectSystem(["terminated jetsam: vm-pageshortage: the system reclaimed the memory of the app running in the background"])
    #expect(h.sim.state.unexpectedFaults.isEmpty)
    try h.perform(.launch(url: nil))
    h.expectStandardLaunch(instance: 2, newSession: false)
  }

  @Test("§14 memory_pressure(\"critical\") never reclaims the foreground app (S25)")
  func foregroundAppIsKept() throws {
    let h = Harness(ios: 17, scenes: true)
    try h.launch()
    try h.perform(.criticalMemoryPressure)
    h.expectSystem(["note notReclaimed: memory pressure never reclaims the foreground app; this one is active"])
    #expect(h.sim.state.appState == .active)
  }
}

@Suite struct LockedFileKillTests {
  private static let kill = "terminated suspended_with_locked_file 0xdead10cc: the app was about to be suspended while holding the file lock \"db\" in a shared container"

  @Test("§14 a shared lock held when the app would be suspended: killed, 0xdead10cc, no callback (S27, S72, T72, T73, F70)",
        arguments: [PlatformUnderTest(ios: 14, scenes: true), PlatformUnderTest(ios: 17, scenes: false)])
  func sharedLockKills(_ p: PlatformUnderTest) throws {
    let app = ScriptedApp()
    let holdDB: ScriptedApp.Handler = { sim in try sim.holdLock("db", shared: true) }
    app.handlers["sceneDidEnterBackground"] = holdDB
    app.handlers["applicationDidEnterBackground"] = holdDB
    let h = Harness(ios: p.ios, scenes: p.scenes, app: app)
    try h.launch()
    try h.perform(.home)
    h.expectHome(system: [Self.kill])
    #expect(h.sim.state.terminations.last?.isFault == true)
    try h.perform(.launch(url: nil))
    h.expectStandardLaunch(instance: 2, newSession: false)  // a kill keeps the scene session
  }

  @Test("§14 the kill falls at the instant of suspension: when the last background task ends (S27, T72)")
  func killWaitsForTheSuspension() throws {
    let app = ScriptedApp()
    app.handlers["sceneDidEnterBackground"] = { sim in
      try sim.holdLock("db", shared: true)
      let id = try sim.beginBackgroundTask(name: "sync")
      app.expirations[id] = { sim in try sim.endBackgroundTask(id) }
    }
    let h = Harness(ios: 17, scenes: true, app: app)
    try h.launch()
    try h.perform(.home)
    h.expectHome(system: [])
    let backgroundAt = h.sim.clock
    try h.perform(.advance(us: 30_000_000))
    h.expectCalls(["BackgroundTask#1.expirationHandler()"])
    h.expectSystem([Self.kill])
    #expect(h.allEvents.last?.t == backgroundAt + 25_000_000)
  }

  @Test("§14 no kill for a lock that is not shared, a shared lock released in time, or with a debugger attached (T72, F70)",
        arguments: ["private", "released", "debugger"])
  func noKill(_ variant: String) throws {
    let app = ScriptedApp()
    app.handlers["sceneDidEnterBackground"] = { sim in
      try sim.holdLock("db", shared: variant != "private")
      if variant == "released" { try sim.releaseLock("db") }
    }
    let h = Harness(ios: 17, scenes: true, app: app) { $0.debuggerAttached = variant == "debugger" }
    try h.launch()
    try h.perform(.home)
    h.expectHome()  // suspended
  }

  @Test("§14 release_lock of a lock not held does nothing but a note")
  func releaseUnknownLock() throws {
    let app = ScriptedApp()
    app.handlers["sceneDidBecomeActive"] = { sim in try sim.releaseLock("db") }
    let h = Harness(ios: 17, scenes: true, app: app)
    try h.perform(.launch(url: nil))
    h.expectCalls(StandardLaunch.sceneCalls(ios: 17))
    h.expectNotifications(StandardLaunch.sceneNotifications)
    h.expectSystem(["started foreground, background", "note releaseLockIgnored: no lock \"db\" is held: the call does nothing"])
  }
}

@Suite struct TimeChangeTests {
  @Test("§14 time_change while running: the notification, then applicationSignificantTimeChange, in scene apps too (S70)",
        arguments: [PlatformUnderTest(ios: 12, scenes: false), PlatformUnderTest(ios: 17, scenes: true)])
  func runningAppGetsItAtOnce(_ p: PlatformUnderTest) throws {
    let h = Harness(ios: p.ios, scenes: p.scenes)
    try h.launch()
    let from = h.allEvents.count
    try h.perform(.timeChange)
    h.expectCalls([AD + "applicationSignificantTimeChange(_:)"])
    h.expectNotifications(["UIApplication.significantTimeChangeNotification"])
    h.expectSystem([])
    #expect(interleaved(h, from: from) == ["post UIApplication.significantTimeChangeNotification", AD + "applicationSignificantTimeChange(_:)"])
  }

  @Test("§14 time changes while suspended are queued, coalesced, delivered before the will-enter-foreground callbacks (S70, S71)",
        arguments: [PlatformUnderTest(ios: 12, scenes: false), PlatformUnderTest(ios: 17, scenes: true)])
  func suspendedAppGetsOneAtTheNextForeground(_ p: PlatformUnderTest) throws {
    let h = Harness(ios: p.ios, scenes: p.scenes)
    try h.launch()
    try h.perform(.home)
    h.expectHome()
    try h.perform(.timeChange, .timeChange)
    let queued = "note timeChangeQueued: the app is suspended: the time change is delivered when it next comes to the foreground, once however many come"
    h.expectSystem([queued, queued])
    #expect(h.sim.state.timeChangePending)
    let from = h.allEvents.count
    try h.perform(.launch(url: nil))
    let back = p.scenes ? [SD + "sceneWillEnterForeground(_:)", SD + "sceneDidBecomeActive(_:)"] : scenelessBack
    h.expectCalls([AD + "applicationSignificantTimeChange(_:)"] + back)
    h.expectNotifications(["UIApplication.significantTimeChangeNotification"] + Posted.back(scenes: p.scenes))
    h.expectSystem(["resumed"])
    #expect(interleaved(h, from: from).prefix(3) == ["post UIApplication.significantTimeChangeNotification",
                                                     AD + "applicationSignificantTimeChange(_:)", back[0]])
    try h.perform(.home)
    h.expectHome()
    try h.perform(.launch(url: nil))  // delivered once: nothing queued any more
    h.expectCalls(back)
    h.expectNotifications(Posted.back(scenes: p.scenes))
    h.expectSystem(["resumed"])
  }

  @Test("§14 a queued time change waits through a background wake by default, and is delivered at it with queuedTimeChangeDelivery = nextRun (S71, S70, S3)",
        arguments: [Profile.QueuedTimeChangeDelivery.nextForeground, .nextRun])
  func backgroundWake(_ delivery: Profile.QueuedTimeChangeDelivery) throws {
    let app = ScriptedApp()
    app.handlers["performFetchWithCompletionHandler"] = { sim in try sim.complete(1) }
    let h = Harness(ios: 17, scenes: false, app: app) { $0.queuedTimeChangeDelivery = delivery }
    try h.launch()
    try h.perform(.home)
    h.expectHome()
    try h.perform(.timeChange)
    h.skipRemainingEvents()  // the queued note, pinned above
    try h.perform(.backgroundLaunch(.fetch))
    let timeChange = [AD + "applicationSignificantTimeChange(_:)"]
    let atWake = delivery == .nextRun
    h.expectCalls((atWake ? timeChange : []) + [AD + "applicationDidEnterBackground(_:)", AD + "application(_:performFetchWithCompletionHandler:)"])
    h.expectNotifications((atWake ? ["UIApplication.significantTimeChangeNotification"] : []) + ["UIApplication.didEnterBackgroundNotification"])
    h.expectSystem(["resumed", "note fetchDeprecated: application(_:performFetchWithCompletionHandler:) is deprecated from iOS 13: use a BGAppRefreshTask",
                    "suspended"])
    try h.perform(.launch(url: nil))
    h.expectCalls((atWake ? [] : timeChange) + scenelessBack)
    h.expectNotifications((atWake ? [] : ["UIApplication.significantTimeChangeNotification"]) + Posted.back(scenes: false))
    h.expectSystem(["resumed"])
  }

  @Test("§14 a time change queued before disconnect_scene is kept and delivered before the reconnection's willConnectTo (S70, S71, S18)")
  func queuedAcrossADisconnect() throws {
    let h = Harness(ios: 17, scenes: true)
    try h.launch()
    try h.perform(.home)
    h.expectHome()
    try h.perform(.timeChange, .disconnectScene(1))
    h.expectCalls([SD + "sceneDidDisconnect(_:)"])  // the resume for the disconnect is in the background: still queued
    h.expectNotifications(["UIScene.didDisconnectNotification"])
    h.expectSystem(["note timeChangeQueued: the app is suspended: the time change is delivered when it next comes to the foreground, once however many come",
                    "resumed", "suspended"])
    try h.perform(.launch(url: nil))
    h.expectCalls([AD + "applicationSignificantTimeChange(_:)"] + reconnect(ios: 17, instance: 2))
    h.expectNotifications(["UIApplication.significantTimeChangeNotification"] + reconnectNotifications)
    h.expectSystem(["resumed"])
  }

  @Test("§14 a time change is lost when the app is not running, and a queued one is lost with the process (S70, S25)")
  func lost() throws {
    let h = Harness(ios: 17, scenes: true)
    try h.perform(.timeChange)
    h.expectSystem(["note timeChangeLost: the app is not running: the time change is not delivered"])
    try h.launch()
    try h.perform(.home)
    h.expectHome()
    try h.perform(.timeChange, .memoryPressure)
    h.skipRemainingEvents()  // the queued note and the reclaim, pinned elsewhere
    try h.perform(.launch(url: nil))
    h.expectStandardLaunch(instance: 2, newSession: false)  // no applicationSignificantTimeChange
  }
}

@Suite struct RebootTests {
  @Test("§14 reboot ends the process with no callback and locks the device; before the first unlock a background launch reads no protected data and cannot write it (F71, F72, F73, S37)",
        arguments: [PlatformUnderTest(ios: 17, scenes: true), PlatformUnderTest(ios: 17, scenes: false)])
  func backgroundLaunchBeforeFirstUnlock(_ p: PlatformUnderTest) throws {
    let app = ScriptedApp()
    var seen: [String] = []
    app.handlers["sceneDidEnterBackground"] = { sim in
      _ = try sim.store("token", .string("t"), .untilFirstUnlock)
      _ = try sim.store("theme", .string("dark"), .none)
    }
    app.handlers["applicationDidEnterBackground"] = app.handlers["sceneDidEnterBackground"]
    app.handlers["didReceiveRemoteNotification"] = { sim in
      let s = sim.state
      seen = [s.readableStoredValue("token")?.canonicalText ?? "nil", s.readableStoredValue("theme")?.canonicalText ?? "nil",
              "\(s.protectedDataAvailable)", "\(try sim.store("token", .string("u"), .untilFirstUnlock))",
              "\(try sim.store("log", .string("l"), .none))"]
      try sim.complete(1)
    }
    let h = Harness(ios: 17, scenes: p.scenes, app: app)
    try h.launch()
    try h.perform(.home)
    h.expectHome()
    try h.perform(.reboot)
    h.expectCalls([])
    h.expectNotifications([])
    h.expectSystem(["terminated reboot: the device restarted"])
    #expect(h.sim.state.firstUnlockPending && h.sim.state.locked && !h.sim.state.protectedDataAvailable)
    #expect(throws: ScenarioError("launch(): the device is locked; unlock() first (state: not_running, device locked)")) {
      try h.perform(.launch(url: nil))
    }
    try h.perform(.backgroundLaunch(.push))
    h.skipRemainingEvents()  // a background launch, pinned in WrongTodayTests; this test is about what it reads
    #expect(seen == ["nil", "\"dark\"", "false", "false", "true"])
    #expect(h.allEvents.contains { $0.body == .noted(name: "storeUnavailable", message: "store(\"token\") refused: untilFirstUnlock data is unavailable before the first unlock") })
    #expect(h.sim.state.store["token"] == .string("t"))  // kept, unreadable
  }

  @Test("§14 the first unlock launches nothing; a suspended app gets applicationProtectedDataDidBecomeAvailable before its foreground callbacks (S37, S71)",
        arguments: [PlatformUnderTest(ios: 17, scenes: true), PlatformUnderTest(ios: 17, scenes: false)])
  func firstUnlockQueuesProtectedData(_ p: PlatformUnderTest) throws {
    let app = ScriptedApp()
    app.handlers["didReceiveRemoteNotification"] = { sim in try sim.complete(1) }
    let h = Harness(ios: 17, scenes: p.scenes, app: app)
    try h.perform(.reboot)
    h.expectSystem([])  // nothing was running
    try h.perform(.backgroundLaunch(.push))
    h.skipRemainingEvents()
    #expect(h.sim.state.process == .suspended)
    try h.perform(.unlock)
    h.expectCalls([])
    h.expectNotifications([])
    h.expectSystem([])
    #expect(!h.sim.state.firstUnlockPending && h.sim.state.protectedDataAvailablePending && h.sim.state.appState == .suspended)
    let from = h.allEvents.count
    try h.perform(.launch(url: nil))
    let available = AD + "applicationProtectedDataDidBecomeAvailable(_:)"
    if p.scenes {
      h.expectCalls([available] + reconnect(ios: 17, instance: 1, newSession: true))  // no session before the reboot
      h.expectNotifications(["UIApplication.protectedDataDidBecomeAvailableNotification"] + reconnectNotifications)
    } else {
      h.expectCalls([available] + scenelessBack)
      h.expectNotifications(["UIApplication.protectedDataDidBecomeAvailableNotification"] + Posted.back(scenes: false))
    }
    h.expectSystem(["resumed"])
    #expect(interleaved(h, from: from).prefix(2) == [available, "post UIApplication.protectedDataDidBecomeAvailableNotification"])
  }

  @Test("§14 prewarming is possible before the first unlock; the launch after it is the whole foreground launch (S2, S37)")
  func prewarmBeforeFirstUnlock() throws {
    let h = Harness(ios: 17, scenes: true)
    try h.perform(.reboot, .prewarm)
    h.expectSystem(["started prewarm, background"])
    #expect(h.sim.state.firstUnlockPending && !h.sim.state.protectedDataAvailable)
    try h.perform(.unlock)  // the first unlock: nothing is delivered to a prewarmed process
    h.expectCalls([])
    h.expectSystem([])
    try h.perform(.launch(url: nil))
    h.expectCalls(StandardLaunch.sceneCalls(ios: 17))
    h.expectNotifications(StandardLaunch.sceneNotifications)
    h.expectSystem(["continued background"])
  }

  @Test("§14 the first unlock reaches an app running in the background at once; then untilFirstUnlock data stays readable while locked, complete data does not (S37, F72)")
  func firstUnlockWhileRunning() throws {
    let app = ScriptedApp()
    app.handlers["didReceiveRemoteNotification"] = { sim in
      _ = try sim.store("token", .string("t"), .none)  // written before the first unlock: class none
    }
    app.handlers["applicationProtectedDataDidBecomeAvailable"] = { sim in
      _ = try sim.store("token", .string("t"), .untilFirstUnlock)
      _ = try sim.store("secret", .string("s"), .complete)
    }
    app.handlers["applicationProtectedDataWillBecomeUnavailable"] = { _ in }
    let h = Harness(ios: 12, scenes: false, app: app)
    try h.perform(.reboot, .backgroundLaunch(.push))
    h.skipRemainingEvents()
    #expect(h.sim.state.process == .running)  // the push completion is outstanding
    try h.perform(.unlock)
    h.expectCalls([AD + "applicationProtectedDataDidBecomeAvailable(_:)"])
    h.expectNotifications(["UIApplication.protectedDataDidBecomeAvailableNotification"])
    h.expectSystem([])
    #expect(h.sim.state.appState == .background)  // the first unlock launches nothing
    try h.perform(.lock, .advance(us: 11_000_000))
    h.expectCalls([AD + "applicationProtectedDataWillBecomeUnavailable(_:)"])
    h.expectNotifications(["UIApplication.protectedDataWillBecomeUnavailableNotification"])
    h.expectSystem([])
    let reads = [h.sim.state.readableStoredValue("token")?.canonicalText ?? "nil", h.sim.state.readableStoredValue("secret")?.canonicalText ?? "nil"]
    #expect(reads == ["\"t\"", "nil"])
  }
}
