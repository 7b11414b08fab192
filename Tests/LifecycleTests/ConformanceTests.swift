import Testing
@testable import Lifecycle

// Exact callback sequences for the rules of docs/model.md: a test's "§n" is that document's
// section, and its source keys (S2, T7, F1…) are the ones its Sources list expands. The
// harness is exhaustive: every callback, notification and system event a test produces is
// claimed in order (or skipped on purpose with `skipRemainingEvents()`), and every test's
// events are replayed through the log's JSON form and must rebuild the live state whole.

private let AD = "AppDelegate.", SD = "SceneDelegate.", NL = "NoteList#1."

private let snapshot = [NL + "traitCollectionDidChange(_:)", NL + "traitCollectionDidChange(_:)"]

@Suite struct ColdLaunchTests {
  @Test("§2 sceneless cold launch, iOS 12/17/26 (S2, T7, T8)", arguments: [12, 17, 26])
  func scenelessColdLaunch(ios: Int) throws {
    let h = Harness(ios: ios, scenes: false)
    try h.perform(.launch(url: nil))
    h.expectCalls(StandardLaunch.scenelessCalls(ios: ios))
    h.expectNotifications(["UIApplication.didFinishLaunchingNotification", "UIApplication.didBecomeActiveNotification"])
    h.expectSystem(["started foreground, inactive"] + (ios >= 26 ? [StandardLaunch.sceneRequiredNote] : []))
    #expect(h.sim.state.appState == .active)
  }

  @Test("§2 scene cold launch, iOS 13/17/26 (S2, S13, T25, T33)", arguments: [13, 17, 26])
  func sceneColdLaunch(ios: Int) throws {
    let h = Harness(ios: ios)
    try h.perform(.launch(url: nil))
    h.expectCalls(StandardLaunch.sceneCalls(ios: ios))
    h.expectNotifications(["UIApplication.didFinishLaunchingNotification", "UIScene.willConnectNotification",
                           "UIScene.willEnterForegroundNotification", "UIApplication.willEnterForegroundNotification",
                           "UIScene.didActivateNotification", "UIApplication.didBecomeActiveNotification"])
    h.expectSystem(["started foreground, background"])
  }

  @Test("§2 knob launchAppearanceOrder = allVCBeforeActive (T9)")
  func allVCBeforeActive() throws {
    let h = Harness(ios: 12) { $0.launchAppearanceOrder = .allVCBeforeActive }
    try h.perform(.launch(url: nil))
    h.expectCalls([NL + "init(coder:)", AD + "application(_:willFinishLaunchingWithOptions:)",
                   AD + "application(_:didFinishLaunchingWithOptions:)", NL + "loadView()", NL + "viewDidLoad()",
                   NL + "viewWillAppear(_:)", NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()",
                   NL + "viewDidAppear(_:)", AD + "applicationDidBecomeActive(_:)"])
    h.expectNotifications(StandardLaunch.scenelessNotifications)
    h.expectSystem(["started foreground, inactive"])
  }

  @Test("§2 knob sceneLaunchAppearanceOrder = allVCAfterActive (S4, T26)")
  func sceneAllAfterActive() throws {
    let h = Harness(ios: 17) { $0.sceneLaunchAppearanceOrder = .allVCAfterActive }
    try h.perform(.launch(url: nil))
    h.expectCalls([AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)",
                   AD + "application(_:configurationForConnecting:options:)", NL + "init(coder:)",
                   SD + "scene(_:willConnectTo:options:)", NL + "loadView()", NL + "viewDidLoad()",
                   SD + "sceneWillEnterForeground(_:)", SD + "sceneDidBecomeActive(_:)",
                   NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)", NL + "viewWillLayoutSubviews()",
                   NL + "viewDidLayoutSubviews()", NL + "viewDidAppear(_:)"])
    h.expectNotifications(StandardLaunch.sceneNotifications)
    h.expectSystem(["started foreground, background"])
  }

  @Test("§13 iOS 26 sceneless apps get the UIScene note (S30, S31)")
  func ios26Note() throws {
    let h = Harness(ios: 26, scenes: false)
    try h.perform(.launch(url: nil))
    h.expectSystem(["started foreground, inactive",
                    "note sceneLifecycleRequired: UIScene lifecycle will soon be required. Failure to adopt will result in an assert in the future. [scene_lifecycle_required]"])
    h.expectCalls(StandardLaunch.scenelessCalls(ios: 26))
    h.expectNotifications(StandardLaunch.scenelessNotifications)
  }

  @Test("§6 launch watchdog: 20 s of main-thread work before the first frame (S26, S28)")
  func launchWatchdog() throws {
    let app = ScriptedApp()
    app.handlers["didFinishLaunchingWithOptions"] = { sim in try sim.work(us: 21_000_000) }
    let h = Harness(ios: 17, app: app)
    try h.perform(.launch(url: nil))
    h.expectCalls([AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)"])
    h.expectNotifications([])
    h.expectSystem(["started foreground, background",
                    "terminated watchdog 0x8badf00d: scene-create watchdog transgression: exhausted real (wall clock) time allowance of 20.00 seconds"])
    #expect(h.sim.state.appState == .notRunning)
    #expect(h.sim.clock == 20_000_000)
  }
}

@Suite struct BackgroundTests {
  @Test("§3 home: resign, enter background, suspend; iOS 12 has no snapshot trait flip (T7, T11, S5)")
  func homeSceneless12() throws {
    let h = Harness(ios: 12, scenes: false)
    try h.launch()
    try h.perform(.home)
    h.expectCalls([AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)"])
    h.expectNotifications(Posted.home(scenes: false))
    h.expectSystem(["suspended"])
    #expect(h.sim.state.appState == .suspended)
  }

  @Test("§3 home on iOS 17 sceneless: the snapshot flips traits twice (T22)")
  func homeSceneless17() throws {
    let h = Harness(ios: 17, scenes: false)
    try h.launch()
    try h.perform(.home)
    h.expectCalls([AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)"] + snapshot)
    h.expectNotifications(Posted.home(scenes: false))
    h.expectSystem(["suspended"])
  }

  @Test("§3 home, scene app: no sceneDidDisconnect (S16, S17, S18)")
  func homeScene() throws {
    let h = Harness(ios: 17)
    try h.launch()
    try h.perform(.home)
    h.expectCalls([SD + "sceneWillResignActive(_:)", SD + "stateRestorationActivity(for:)", SD + "sceneDidEnterBackground(_:)"] + snapshot)
    h.expectNotifications(Posted.home(scenes: true))
    h.expectSystem(["suspended"])
    #expect(h.sim.state.scenes.map(\.label) == ["Scene#1"])
  }

  @Test("§3 return from suspension, no appearance callbacks (T7, T9, S14)", arguments: [false, true])
  func returnFromBackground(scenes: Bool) throws {
    let h = Harness(ios: 17, scenes: scenes)
    try h.launch()
    try h.perform(.home, .advance(us: 60_000_000))
    h.expectCalls(scenes ? [SD + "sceneWillResignActive(_:)", SD + "stateRestorationActivity(for:)", SD + "sceneDidEnterBackground(_:)"] + snapshot
                         : [AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)"] + snapshot)
    h.expectNotifications(Posted.home(scenes: scenes))
    h.expectSystem(["suspended"])
    try h.perform(.launch(url: nil))
    h.expectCalls(scenes ? [SD + "sceneWillEnterForeground(_:)", SD + "sceneDidBecomeActive(_:)"]
                         : [AD + "applicationWillEnterForeground(_:)", AD + "applicationDidBecomeActive(_:)"])
    h.expectNotifications(Posted.back(scenes: scenes))
    h.expectSystem(["resumed"])
  }

  @Test("§12 lock, protected data 10 s later, unlock back into the app, which hears first that protected data is back (T10, S37, S-apg)")
  func lockUnlock() throws {
    let h = Harness(ios: 12, scenes: false)
    try h.launch()
    try h.perform(.lock)
    h.expectHome()
    try h.perform(.advance(us: 15_000_000))
    #expect(h.sim.state.protectedDataAvailable == false)
    h.expectCalls([])  // suspended: nothing delivered
    h.expectNotifications([])
    try h.perform(.unlock)
    h.expectCalls([AD + "applicationProtectedDataDidBecomeAvailable(_:)", AD + "applicationWillEnterForeground(_:)",
                   AD + "applicationDidBecomeActive(_:)"])
    h.expectNotifications(["UIApplication.protectedDataDidBecomeAvailableNotification"] + Posted.back(scenes: false))
    h.expectSystem(["resumed"])
    #expect(h.sim.state.protectedDataAvailable)
  }

  @Test("§4 a background task never ended: expiration at 25 s, kill at 30 s (F1, S7, S27)")
  func backgroundTaskExpires() throws {
    let app = ScriptedApp()
    app.handlers["applicationDidEnterBackground"] = { sim in
      let id = try sim.beginBackgroundTask(name: "upload")
      app.expirations[id] = { _ in }  // does not end the task
    }
    let h = Harness(ios: 17, scenes: false, app: app)
    try h.launch()
    try h.perform(.home)
    h.expectCalls([AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)"] + snapshot)
    h.expectNotifications(Posted.home(scenes: false))
    h.expectSystem([])  // a task is running: not suspended
    try h.perform(.advance(us: 60_000_000))
    h.expectCalls(["BackgroundTask#1.expirationHandler()"])
    h.expectSystem(["note taskOpenAfterExpiration: background task \"upload\" (1) is still not ended after its expiration handler returned [task_open_after_expiration]",
                    "terminated background_task_expired 0x2182bad2: background task \"upload\" (1) was not ended: exhausted background time allowance of 30.00 seconds"])
    let expiration = h.allEvents.first { if case .callbackDelivered(.expirationHandler, _, _, _, _) = $0.body { return true }; return false }
    #expect(expiration?.t == 25_000_000)
    #expect(h.allEvents.last { if case .terminated = $0.body { return true }; return false }?.t == 30_000_000)
  }

  @Test("§4 iOS 12 allowance is 180 s (T29, T32)")
  func allowance12() throws {
    let app = ScriptedApp()
    app.handlers["applicationDidEnterBackground"] = { sim in _ = try sim.beginBackgroundTask(name: "t") }
    let h = Harness(ios: 12, app: app)
    try h.launch()
    try h.perform(.home, .advance(us: 200_000_000))
    h.expectCalls([AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)",
                   "BackgroundTask#1.expirationHandler()"])
    h.expectNotifications(Posted.home(scenes: false))
    h.expectSystem(["terminated background_task_expired 0x2182bad2: background task \"t\" (1) was not ended: exhausted background time allowance of 180.00 seconds"])
    #expect(h.allEvents.last { if case .terminated = $0.body { return true }; return false }?.t == 180_000_000)
  }

  @Test("§4 a task ended by its expiration handler: suspended, not killed (S6)")
  func expirationEndsTask() throws {
    let app = ScriptedApp()
    app.handlers["applicationDidEnterBackground"] = { sim in
      let id = try sim.beginBackgroundTask(name: "upload")
      app.expirations[id] = { sim in try sim.endBackgroundTask(id) }
    }
    let h = Harness(ios: 17, scenes: false, app: app)
    try h.launch()
    try h.perform(.home, .advance(us: 60_000_000))
    h.expectCalls([AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)"] + snapshot
                  + ["BackgroundTask#1.expirationHandler()"])
    h.expectNotifications(Posted.home(scenes: false))
    h.expectSystem(["suspended"])
    #expect(h.sim.state.appState == .suspended)
    #expect(h.sim.state.terminations.isEmpty)
  }

  @Test("§6 didEnterBackground blocking 6 s is killed at 5 s (S9, S26)", arguments: [false, true])
  func didEnterBackgroundOverrun(scenes: Bool) throws {
    let app = ScriptedApp()
    let key = scenes ? "sceneDidEnterBackground" : "applicationDidEnterBackground"
    app.handlers[key] = { sim in try sim.store(key: "draft", value: .string("x")); try sim.work(us: 6_000_000) }
    let h = Harness(ios: 17, scenes: scenes, app: app)
    try h.launch()
    try h.perform(.home)
    let sig = scenes ? "sceneDidEnterBackground(_:)" : "applicationDidEnterBackground(_:)"
    h.expectCalls(scenes ? [SD + "sceneWillResignActive(_:)", SD + "stateRestorationActivity(for:)", SD + sig] : [AD + "applicationWillResignActive(_:)", AD + sig])
    h.expectNotifications(Posted.resignActive(scenes: scenes))
    h.expectSystem(["terminated watchdog 0x8badf00d: \(sig) did not return: exhausted real (wall clock) time allowance of 5.00 seconds"])
    #expect(h.sim.clock == 5_000_000)
    #expect(h.sim.state.store["draft"] == .string("x"))  // stored data survives the kill
  }

  @Test("§6 a foreground hang over 10 s is a scene-update kill (S26, knob foregroundHangLimit)")
  func foregroundHang() throws {
    let app = ScriptedApp()
    app.handlers["Detail.viewDidAppear"] = { sim in try sim.work(us: 11_000_000) }
    let h = Harness(app: app)
    try h.launch()
    try h.perform(.push("Detail"))
    h.expectCalls(["Detail#1.init(coder:)", "Detail#1.loadView()", "Detail#1.viewDidLoad()", NL + "viewWillDisappear(_:)",
      "Detail#1.viewWillAppear(_:)", "Detail#1.viewIsAppearing(_:)", "Detail#1.viewWillLayoutSubviews()",
      "Detail#1.viewDidLayoutSubviews()", NL + "viewDidDisappear(_:)", "Detail#1.viewDidAppear(_:)"])
    h.expectSystem(["terminated watchdog 0x8badf00d: scene-update watchdog transgression: viewDidAppear(_:) blocked the main thread; exhausted real (wall clock) time allowance of 10.00 seconds"])
  }

  @Test("§2 background fetch cold launch, completion never called (S3, S33, S27)")
  func backgroundFetch() throws {
    let app = ScriptedApp()
    app.handlers["performFetchWithCompletionHandler"] = { _ in }
    let h = Harness(ios: 17, scenes: false, app: app)
    try h.perform(.backgroundLaunch(.fetch))
    h.expectCalls([NL + "init(coder:)", AD + "application(_:willFinishLaunchingWithOptions:)",
                   AD + "application(_:didFinishLaunchingWithOptions:)", NL + "loadView()", NL + "viewDidLoad()",
                   NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)", NL + "viewWillLayoutSubviews()",
                   NL + "viewDidLayoutSubviews()", NL + "viewDidAppear(_:)",
                   AD + "applicationDidEnterBackground(_:)", AD + "application(_:performFetchWithCompletionHandler:)"])
    h.expectNotifications(["UIApplication.didFinishLaunchingNotification", "UIApplication.didEnterBackgroundNotification"])
    h.expectSystem(["started background, background", BG.fetchDeprecatedNote])
    try h.perform(.advance(us: 40_000_000))
    h.expectSystem(["terminated background_task_expired 0x2182bad4: application(_:performFetchWithCompletionHandler:) did not call its completion handler within 30.00 seconds"])
  }

  @Test("§2 a scene app launched for a push connects no scene; completion called → suspended (S1, S33)")
  func backgroundPushScene() throws {
    let app = ScriptedApp()
    app.handlers["didReceiveRemoteNotification"] = { sim in try sim.complete(1) }
    let h = Harness(ios: 17, app: app)
    try h.perform(.backgroundLaunch(.push))
    h.expectCalls([AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)",
                   AD + "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"])
    h.expectNotifications(["UIApplication.didFinishLaunchingNotification"])
    h.expectSystem(["started background, background", "suspended"])
    #expect(h.sim.state.appState == .suspended && h.sim.state.scenes.isEmpty)
    try h.perform(.launch(url: nil))
    h.expectCalls(Array(StandardLaunch.sceneCalls(ios: 17).dropFirst(2)))  // no second willFinish/didFinish
    h.expectNotifications(Array(StandardLaunch.sceneNotifications.dropFirst()))
    h.expectSystem(["resumed"])
  }
}

@Suite struct InterruptionTests {
  @Test("§7 incoming call declined / answered (T-SO3712979)", arguments: [InterruptionEnd.declined, .answered])
  func call(end: InterruptionEnd) throws {
    let h = Harness(ios: 12)
    try h.launch()
    try h.perform(.interrupt(.call), .endInterrupt(end))
    h.expectCalls([AD + "applicationWillResignActive(_:)",
                   end == .declined ? AD + "applicationDidBecomeActive(_:)" : AD + "applicationDidEnterBackground(_:)"])
    h.expectNotifications(Posted.resignActive(scenes: false)
                          + (end == .declined ? Posted.becomeActive(scenes: false) : Posted.enterBackground(scenes: false)))
    h.expectSystem(end == .declined ? [] : ["suspended"])
  }

  @Test("§6 Notification Center and Control Center, scene app (T9, S16; a full Notification Center pull: OpenRadar 49216830)",
        arguments: [Interruption.notificationCenter, .controlCenter, .alert])
  func overlays(kind: Interruption) throws {
    let h = Harness(ios: 17)
    try h.launch()
    try h.perform(.interrupt(kind), .endInterrupt(.dismissed))
    let pair = [SD + "sceneWillResignActive(_:)", SD + "sceneDidBecomeActive(_:)"]
    let posted = Posted.resignActive(scenes: true) + Posted.becomeActive(scenes: true)
    h.expectCalls(kind == .notificationCenter ? pair + pair : pair)
    h.expectNotifications(kind == .notificationCenter ? posted + posted : posted)
    #expect(throws: ScenarioError.self) { try h.sim.perform(.endInterrupt(.dismissed)) }
  }

  @Test("§7 app switcher then the same app: no willEnterForeground (T11)")
  func switcherSelf() throws {
    let h = Harness(ios: 12)
    try h.launch()
    try h.perform(.appSwitcher, .switchTo(other: false))
    h.expectCalls([AD + "applicationWillResignActive(_:)", AD + "applicationDidBecomeActive(_:)"])
    h.expectNotifications(Posted.resignActive(scenes: false) + Posted.becomeActive(scenes: false))
  }

  @Test("§7 app switcher then another app: didEnterBackground without a second resign (T11)")
  func switcherOther() throws {
    let h = Harness(ios: 12)
    try h.launch()
    try h.perform(.appSwitcher, .switchTo(other: true))
    h.expectHome()
  }

  @Test("§6 force quit while suspended: no callbacks; the session survives only a system kill (T27, T28, T33, S19)")
  func forceQuitSuspended() throws {
    let h = Harness(ios: 17)
    try h.launch()
    try h.perform(.home, .forceQuit)
    h.expectHome(system: ["suspended", "terminated user: force quit from the app switcher while suspended"])
    try h.perform(.launch(url: nil))
    h.expectStandardLaunch(instance: 2, newSession: true, discarded: true)
  }

  @Test("§6 force quit from the switcher while inactive: disconnect, willTerminate, discard (F3, T27, S19)")
  func forceQuitInactive() throws {
    let h = Harness(ios: 17)
    try h.launch()
    try h.perform(.appSwitcher)
    h.expectCalls([SD + "sceneWillResignActive(_:)"])
    try h.perform(.forceQuit)
    h.expectCalls([SD + "sceneDidDisconnect(_:)", AD + "applicationWillTerminate(_:)"])
    h.expectNotifications(Posted.resignActive(scenes: true) + ["UIScene.didDisconnectNotification", "UIApplication.willTerminateNotification"])
    h.expectSystem(["terminated user: force quit from the app switcher"])
    try h.perform(.launch(url: nil))
    h.expectStandardLaunch(instance: 2, newSession: true, discarded: true)
  }

  @Test("§6 memory pressure reclaims a suspended app; the next launch reuses the session (S25, T33)")
  func memoryPressure() throws {
    let h = Harness(ios: 17)
    try h.launch()
    try h.perform(.home, .memoryPressure)
    h.expectHome(system: ["suspended", "terminated jetsam: vm-pageshortage: the system reclaimed the suspended app's memory"])
    try h.perform(.launch(url: nil))
    h.expectStandardLaunch(instance: 2, newSession: false)
  }

  @Test("§6 background launches are not delivered after a force quit (S33)")
  func noBackgroundLaunchAfterForceQuit() throws {
    let h = Harness(ios: 17)
    try h.launch()
    try h.perform(.home, .forceQuit)
    h.expectHome(system: ["suspended", "terminated user: force quit from the app switcher while suspended"])
    try h.perform(.backgroundLaunch(.fetch))
    h.expectSystem(["note backgroundLaunchNotDelivered: the user force quit the app: fetch is not delivered until the user opens it again"])
    #expect(h.sim.state.process == .notRunning)
  }

  @Test("illegal verbs name the state")
  func illegalVerbs() throws {
    let h = Harness(ios: 17)
    #expect(throws: ScenarioError("unlock(): the device is not locked (state: not_running)")) { try h.sim.perform(.unlock) }
    try h.launch()
    #expect(throws: ScenarioError("launch(): the app is already active (state: active)")) { try h.sim.perform(.launch(url: nil)) }
    #expect(throws: ScenarioError("pop(): the navigation stack has nothing to pop (state: active)")) { try h.sim.perform(.pop) }
    h.expectCalls([])  // a refused verb records nothing
  }
}
