import EventStore
import Testing
@testable import Lifecycle

// Exact callback sequences for the scenarios of LIFECYCLE.md Part 2 §2–§18 that Part 1
// decides. Each test names its sources; every test also checks that replaying its events
// through the log's JSON form rebuilds the live state (event sourcing for real).

private let AD = "AppDelegate.", SD = "SceneDelegate.", NL = "NoteList#1."

private func launchSceneless(ios: Int) -> [String] {
  var s = [NL + "init(coder:)", AD + "application(_:willFinishLaunchingWithOptions:)",
           AD + "application(_:didFinishLaunchingWithOptions:)", NL + "loadView()", NL + "viewDidLoad()",
           NL + "viewWillAppear(_:)"]
  if ios >= 13 { s.append(NL + "viewIsAppearing(_:)") }
  if ios >= 26 { s.append(NL + "updateProperties()") }
  s += [NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()", AD + "applicationDidBecomeActive(_:)",
        NL + "viewDidAppear(_:)"]
  return s
}

private func launchScene(ios: Int, newSession: Bool = true, discarded: Bool = false, instance: Int = 1) -> [String] {
  let NL = "NoteList#\(instance)." 
  var s = [AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)"]
  if discarded { s.append(AD + "application(_:didDiscardSceneSessions:)") }
  if newSession { s.append(AD + "application(_:configurationForConnecting:options:)") }
  s += [NL + "init(coder:)", SD + "scene(_:willConnectTo:options:)", NL + "loadView()", NL + "viewDidLoad()",
        NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)"]
  if ios >= 26 { s.append(NL + "updateProperties()") }
  s += [NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()", SD + "sceneWillEnterForeground(_:)",
        SD + "sceneDidBecomeActive(_:)", NL + "viewDidAppear(_:)"]
  return s
}

private let snapshot = [NL + "traitCollectionDidChange(_:)", NL + "traitCollectionDidChange(_:)"]

@Suite struct ColdLaunchTests {
  @Test("§2 1(a) sceneless cold launch, iOS 12/17/26 (S2, T7, T8)", arguments: [12, 17, 26])
  func scenelessColdLaunch(ios: Int) throws {
    let h = Harness(ios: ios, scenes: false)
    try h.perform(.launch(url: nil))
    #expect(h.takeCalls() == launchSceneless(ios: ios))
    #expect(h.sim.state.appState == .active)
    #expect(try h.replayMatches())
  }

  @Test("§2 1(b) scene cold launch, iOS 13/17/26 (S2, S13, T25, T33)", arguments: [13, 17, 26])
  func sceneColdLaunch(ios: Int) throws {
    let h = Harness(ios: ios)
    try h.perform(.launch(url: nil))
    #expect(h.takeCalls() == launchScene(ios: ios))
    let notes = h.takeEvents().compactMap { if case let .notification(n, _, _) = $0 { return n }; return nil }
    #expect(notes == ["UIApplication.didFinishLaunchingNotification", "UIScene.willConnectNotification",
                      "UIScene.willEnterForegroundNotification", "UIApplication.willEnterForegroundNotification",
                      "UIScene.didActivateNotification", "UIApplication.didBecomeActiveNotification"])
    #expect(try h.replayMatches())
  }

  @Test("§2 knob launchAppearanceOrder = allVCBeforeActive (T9)")
  func allVCBeforeActive() throws {
    let h = Harness(ios: 12) { $0.launchAppearanceOrder = .allVCBeforeActive }
    try h.perform(.launch(url: nil))
    #expect(h.takeCalls().suffix(2) == [NL + "viewDidAppear(_:)", AD + "applicationDidBecomeActive(_:)"])
  }

  @Test("§2 knob sceneLaunchAppearanceOrder = allVCAfterActive (S4, T26)")
  func sceneAllAfterActive() throws {
    let h = Harness(ios: 17) { $0.sceneLaunchAppearanceOrder = .allVCAfterActive }
    try h.perform(.launch(url: nil))
    #expect(Array(h.takeCalls().suffix(7)) == [SD + "sceneWillEnterForeground(_:)", SD + "sceneDidBecomeActive(_:)",
      NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)", NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()",
      NL + "viewDidAppear(_:)"])
  }

  @Test("§2 iOS 26 sceneless apps get the UIScene note (S30, S31)")
  func ios26Note() throws {
    let h = Harness(ios: 26, scenes: false)
    try h.perform(.launch(url: nil))
    #expect(h.takeEvents().contains { if case .note("sceneLifecycleRequired", _) = $0 { return true }; return false })
  }

  @Test("§10 launch watchdog: 20 s of main-thread work before the first frame (S26, S28)")
  func launchWatchdog() throws {
    let app = ScriptedApp()
    app.handlers["didFinishLaunchingWithOptions"] = { sim in try sim.work(us: 21_000_000) }
    let h = Harness(ios: 17, app: app)
    try h.perform(.launch(url: nil))
    #expect(h.sim.state.appState == .notRunning)
    let t = h.sim.state.terminations.last
    #expect(t?.reason == .watchdog && t?.code == "0x8badf00d")
    #expect(t?.description == "scene-create watchdog transgression: exhausted real (wall clock) time allowance of 20.00 seconds")
    #expect(h.sim.clock == 20_000_000)
    #expect(try h.replayMatches())
  }
}

@Suite struct BackgroundTests {
  @Test("§3 2(a) home: resign, enter background, suspend; iOS 12 has no snapshot trait flip (T7, T11, S5)")
  func homeSceneless12() throws {
    let h = Harness(ios: 12, scenes: false)
    try h.perform(.launch(url: nil)); _ = h.takeCalls(); _ = h.takeEvents()
    try h.perform(.home)
    #expect(h.takeCalls() == [AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)"])
    #expect(h.sim.state.appState == .suspended)
    #expect(try h.replayMatches())
  }

  @Test("§3 2(a) home on iOS 17 sceneless: the snapshot flips traits twice (T22)")
  func homeSceneless17() throws {
    let h = Harness(ios: 17, scenes: false)
    try h.perform(.launch(url: nil)); _ = h.takeCalls()
    try h.perform(.home)
    #expect(h.takeCalls() == [AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)"] + snapshot)
  }

  @Test("§3 2(b) home, scene app (S16, S17, S18): no sceneDidDisconnect")
  func homeScene() throws {
    let h = Harness(ios: 17)
    try h.perform(.launch(url: nil)); _ = h.takeCalls()
    try h.perform(.home)
    #expect(h.takeCalls() == [SD + "sceneWillResignActive(_:)", SD + "sceneDidEnterBackground(_:)"] + snapshot)
    #expect(h.sim.state.sceneLabel == "Scene#1")
    #expect(try h.replayMatches())
  }

  @Test("§4 3(a)/3(b) return from suspension, no appearance callbacks (T7, T9, S14)", arguments: [false, true])
  func returnFromBackground(scenes: Bool) throws {
    let h = Harness(ios: 17, scenes: scenes)
    try h.perform(.launch(url: nil), .home, .advance(us: 60_000_000)); _ = h.takeCalls()
    try h.perform(.launch(url: nil))
    #expect(h.takeCalls() == (scenes ? [SD + "sceneWillEnterForeground(_:)", SD + "sceneDidBecomeActive(_:)"]
                                      : [AD + "applicationWillEnterForeground(_:)", AD + "applicationDidBecomeActive(_:)"]))
    #expect(try h.replayMatches())
  }

  @Test("§5 lock, protected data 10 s later, unlock back into the app (T10, S37)")
  func lockUnlock() throws {
    let h = Harness(ios: 12, scenes: false)
    try h.perform(.launch(url: nil)); _ = h.takeCalls()
    try h.perform(.lock)
    #expect(h.takeCalls() == [AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)"])
    try h.perform(.advance(us: 15_000_000))
    #expect(h.sim.state.protectedDataAvailable == false)
    #expect(h.takeCalls() == [])  // suspended: nothing delivered
    try h.perform(.unlock)
    #expect(h.takeCalls() == [AD + "applicationWillEnterForeground(_:)", AD + "applicationDidBecomeActive(_:)"])
    #expect(h.sim.state.protectedDataAvailable)
    #expect(try h.replayMatches())
  }

  @Test("§9 a background task never ended: expiration at 25 s, kill at 30 s (F1, S7, S27)")
  func backgroundTaskExpires() throws {
    let app = ScriptedApp()
    app.handlers["applicationDidEnterBackground"] = { sim in
      let id = try sim.beginBackgroundTask(name: "upload")
      app.expirations[id] = { _ in }  // does not end the task
    }
    let h = Harness(ios: 17, scenes: false, app: app)
    try h.perform(.launch(url: nil), .home); _ = h.takeCalls()
    try h.perform(.advance(us: 60_000_000))
    let events = h.allEvents
    let expiration = events.first { if case .callback(.expirationHandler, _, _, _, _, _) = $0.body { return true }; return false }
    #expect(expiration?.t == 25_000_000)
    let t = h.sim.state.terminations.last
    #expect(t == Termination(reason: .backgroundTaskExpired, code: "0x2182bad2",
                             description: "background task \"upload\" (1) was not ended: exhausted background time allowance of 30.00 seconds"))
    #expect(events.last { if case .terminated = $0.body { return true }; return false }?.t == 30_000_000)
    #expect(try h.replayMatches())
  }

  @Test("§9 iOS 12 allowance is 180 s (T29, T32)")
  func allowance12() throws {
    let app = ScriptedApp()
    app.handlers["applicationDidEnterBackground"] = { sim in _ = try sim.beginBackgroundTask(name: "t") }
    let h = Harness(ios: 12, app: app)
    try h.perform(.launch(url: nil), .home, .advance(us: 200_000_000))
    #expect(h.allEvents.last { if case .terminated = $0.body { return true }; return false }?.t == 180_000_000)
  }

  @Test("§9 a task ended by its expiration handler: suspended, not killed (S6)")
  func expirationEndsTask() throws {
    let app = ScriptedApp()
    app.handlers["applicationDidEnterBackground"] = { sim in
      let id = try sim.beginBackgroundTask(name: "upload")
      app.expirations[id] = { sim in try sim.endBackgroundTask(id) }
    }
    let h = Harness(ios: 17, scenes: false, app: app)
    try h.perform(.launch(url: nil), .home, .advance(us: 60_000_000))
    #expect(h.sim.state.appState == .suspended)
    #expect(h.sim.state.terminations.isEmpty)
  }

  @Test("§10 didEnterBackground blocking 6 s is killed at 5 s (S9, S26)", arguments: [false, true])
  func didEnterBackgroundOverrun(scenes: Bool) throws {
    let app = ScriptedApp()
    let key = scenes ? "sceneDidEnterBackground" : "applicationDidEnterBackground"
    app.handlers[key] = { sim in try sim.store(key: "draft", value: .string("x")); try sim.work(us: 6_000_000) }
    let h = Harness(ios: 17, scenes: scenes, app: app)
    try h.perform(.launch(url: nil), .home)
    let sig = scenes ? "sceneDidEnterBackground(_:)" : "applicationDidEnterBackground(_:)"
    #expect(h.sim.state.terminations.last == Termination(reason: .watchdog, code: "0x8badf00d",
      description: "\(sig) did not return: exhausted real (wall clock) time allowance of 5.00 seconds"))
    #expect(h.sim.clock == 5_000_000)
    #expect(h.sim.state.store["draft"] == .string("x"))  // stored data survives the kill
    #expect(try h.replayMatches())
  }

  @Test("§10 a foreground hang over 10 s is a scene-update kill (S26, knob foregroundHangLimit)")
  func foregroundHang() throws {
    let app = ScriptedApp()
    app.handlers["Detail.viewDidAppear"] = { sim in try sim.work(us: 11_000_000) }
    let h = Harness(app: app)
    try h.perform(.launch(url: nil), .push("Detail"))
    #expect(h.sim.state.terminations.last?.description == "scene-update watchdog transgression: viewDidAppear(_:) blocked the main thread; exhausted real (wall clock) time allowance of 10.00 seconds")
  }

  @Test("§17 16.3 background fetch cold launch, completion never called (S3, S33, S27)")
  func backgroundFetch() throws {
    let app = ScriptedApp()
    app.handlers["performFetchWithCompletionHandler"] = { _ in }
    let h = Harness(ios: 17, scenes: false, app: app)
    try h.perform(.backgroundLaunch(.fetch))
    #expect(h.takeCalls() == [AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)",
                              AD + "applicationDidEnterBackground(_:)", AD + "application(_:performFetchWithCompletionHandler:)"])
    try h.perform(.advance(us: 40_000_000))
    #expect(h.sim.state.terminations.last?.code == "0x2182bad4")
    #expect(try h.replayMatches())
  }

  @Test("§17 16.3 a scene app launched for a push connects no scene; completion called → suspended")
  func backgroundPushScene() throws {
    let app = ScriptedApp()
    app.handlers["didReceiveRemoteNotification"] = { sim in try sim.complete(1) }
    let h = Harness(ios: 17, app: app)
    try h.perform(.backgroundLaunch(.push))
    #expect(h.takeCalls() == [AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)",
                              AD + "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"])
    #expect(h.sim.state.appState == .suspended && h.sim.state.sceneLabel == nil)
    try h.perform(.launch(url: nil))
    #expect(h.takeCalls().first == AD + "application(_:configurationForConnecting:options:)")
  }
}

@Suite struct InterruptionTests {
  @Test("§6 incoming call declined / answered (T-SO3712979)", arguments: [InterruptionEnd.declined, .answered])
  func call(end: InterruptionEnd) throws {
    let h = Harness(ios: 12)
    try h.perform(.launch(url: nil)); _ = h.takeCalls()
    try h.perform(.interrupt(.call), .endInterrupt(end))
    #expect(h.takeCalls() == [AD + "applicationWillResignActive(_:)",
                              end == .declined ? AD + "applicationDidBecomeActive(_:)" : AD + "applicationDidEnterBackground(_:)"])
  }

  @Test("§6 Notification Center and Control Center, scene app (T9, S16; a full Notification Center pull: OpenRadar 49216830)",
        arguments: [Interruption.notificationCenter, .controlCenter, .alert])
  func overlays(kind: Interruption) throws {
    let h = Harness(ios: 17)
    try h.perform(.launch(url: nil)); _ = h.takeCalls()
    try h.perform(.interrupt(kind), .endInterrupt(.dismissed))
    let pair = [SD + "sceneWillResignActive(_:)", SD + "sceneDidBecomeActive(_:)"]
    #expect(h.takeCalls() == (kind == .notificationCenter ? pair + pair : pair))
    #expect(throws: ScenarioError.self) { try h.sim.perform(.endInterrupt(.dismissed)) }
  }

  @Test("§7 app switcher then the same app: no willEnterForeground (T11)")
  func switcherSelf() throws {
    let h = Harness(ios: 12)
    try h.perform(.launch(url: nil)); _ = h.takeCalls()
    try h.perform(.appSwitcher, .switchTo(other: false))
    #expect(h.takeCalls() == [AD + "applicationWillResignActive(_:)", AD + "applicationDidBecomeActive(_:)"])
  }

  @Test("§7 app switcher then another app: didEnterBackground without a second resign (T11)")
  func switcherOther() throws {
    let h = Harness(ios: 12)
    try h.perform(.launch(url: nil)); _ = h.takeCalls()
    try h.perform(.appSwitcher, .switchTo(other: true))
    #expect(h.takeCalls() == [AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)"])
  }

  @Test("§8 force quit while suspended: no callbacks; the session survives only a system kill (T27, T28, T33, S19)")
  func forceQuitSuspended() throws {
    let h = Harness(ios: 17)
    try h.perform(.launch(url: nil), .home, .forceQuit); _ = h.takeCalls()
    #expect(h.sim.state.terminations.last?.reason == .user)
    try h.perform(.launch(url: nil))
    #expect(h.takeCalls() == launchScene(ios: 17, newSession: true, discarded: true, instance: 2))
  }

  @Test("§8 force quit from the switcher while inactive: disconnect, willTerminate, discard (F3, T27, S19)")
  func forceQuitInactive() throws {
    let h = Harness(ios: 17)
    try h.perform(.launch(url: nil), .appSwitcher); _ = h.takeCalls()
    try h.perform(.forceQuit)
    #expect(h.takeCalls() == [SD + "sceneDidDisconnect(_:)", AD + "applicationWillTerminate(_:)"])
    try h.perform(.launch(url: nil))
    #expect(h.takeCalls() == launchScene(ios: 17, newSession: true, discarded: true, instance: 2))
    #expect(try h.replayMatches())
  }

  @Test("§11 memory pressure reclaims a suspended app; the next launch reuses the session (S25, T33)")
  func memoryPressure() throws {
    let h = Harness(ios: 17)
    try h.perform(.launch(url: nil), .home, .memoryPressure); _ = h.takeCalls()
    #expect(h.sim.state.terminations.last?.reason == .jetsam)
    try h.perform(.launch(url: nil))
    #expect(h.takeCalls() == launchScene(ios: 17, newSession: false, instance: 2))
  }

  @Test("§8 background launches are not delivered after a force quit (S33)")
  func noBackgroundLaunchAfterForceQuit() throws {
    let h = Harness(ios: 17)
    try h.perform(.launch(url: nil), .home, .forceQuit, .backgroundLaunch(.fetch))
    #expect(h.sim.state.process == .notRunning)
    #expect(h.takeEvents().contains { if case .note("backgroundLaunchNotDelivered", _) = $0 { return true }; return false })
  }

  @Test("illegal verbs name the state")
  func illegalVerbs() throws {
    let h = Harness(ios: 17)
    #expect(throws: ScenarioError("unlock(): the device is not locked (state: not_running)")) { try h.sim.perform(.unlock) }
    try h.perform(.launch(url: nil))
    #expect(throws: ScenarioError("launch(): the app is already active (state: active)")) { try h.sim.perform(.launch(url: nil)) }
    #expect(throws: ScenarioError("pop(): the navigation stack has nothing to pop (state: active)")) { try h.sim.perform(.pop) }
  }
}

@Suite struct NavigationTests {
  private func launched(ios: Int = 17, app: ScriptedApp = ScriptedApp()) throws -> Harness {
    let h = Harness(ios: ios, app: app)
    try h.perform(.launch(url: nil)); _ = h.takeCalls()
    return h
  }

  @Test("§12 push then pop (T19, T20, T13)")
  func pushPop() throws {
    let h = try launched()
    try h.perform(.push("Detail"))
    #expect(h.takeCalls() == ["Detail#1.init(coder:)", "Detail#1.loadView()", "Detail#1.viewDidLoad()", NL + "viewWillDisappear(_:)",
      "Detail#1.viewWillAppear(_:)", "Detail#1.viewIsAppearing(_:)", "Detail#1.viewWillLayoutSubviews()",
      "Detail#1.viewDidLayoutSubviews()", NL + "viewDidDisappear(_:)", "Detail#1.viewDidAppear(_:)"])
    try h.perform(.pop)
    #expect(h.takeCalls() == ["Detail#1.viewWillDisappear(_:)", NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)",
      NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()", "Detail#1.viewDidDisappear(_:)", NL + "viewDidAppear(_:)"])
    try h.perform(.push("Detail"))
    #expect(h.takeCalls().first == "Detail#2.init(coder:)")  // a popped controller is gone: a new instance
    #expect(try h.replayMatches())
  }

  @Test("§12 interactive swipe-back cancelled (T13, T12)")
  func swipeBackCancelled() throws {
    let h = try launched()
    try h.perform(.push("Detail")); _ = h.takeCalls()
    try h.perform(.swipeBack(cancel: true))
    #expect(h.takeCalls() == ["Detail#1.viewWillDisappear(_:)", NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)",
      NL + "viewWillDisappear(_:)", NL + "viewDidDisappear(_:)", "Detail#1.viewWillAppear(_:)", "Detail#1.viewIsAppearing(_:)",
      "Detail#1.viewDidAppear(_:)"])
    #expect(h.sim.state.controller("Detail#1")?.appearance == .appeared)
    #expect(h.sim.state.controller("NoteList#1")?.appearance == .disappeared)
  }

  @Test("§13 fullScreen present and dismiss: the presenter's did comes after (T14, T15)")
  func fullScreen() throws {
    let h = try launched()
    try h.perform(.present("Sheet", style: .fullScreen, navigation: false))
    #expect(h.takeCalls() == ["Sheet#1.init(coder:)", "Sheet#1.loadView()", "Sheet#1.viewDidLoad()", NL + "viewWillDisappear(_:)",
      "Sheet#1.viewWillAppear(_:)", "Sheet#1.viewIsAppearing(_:)", "Sheet#1.viewWillLayoutSubviews()",
      "Sheet#1.viewDidLayoutSubviews()", "Sheet#1.viewDidAppear(_:)", NL + "viewDidDisappear(_:)"])
    try h.perform(.dismiss)
    #expect(h.takeCalls() == ["Sheet#1.viewWillDisappear(_:)", NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)",
      NL + "viewDidAppear(_:)", "Sheet#1.viewDidDisappear(_:)"])
  }

  @Test("§13 pageSheet (the iOS 13+ default): the presenter gets nothing (T14, T16, T17)")
  func pageSheet() throws {
    let h = try launched()
    try h.perform(.present("Sheet", style: nil, navigation: false))
    #expect(h.takeCalls() == ["Sheet#1.init(coder:)", "Sheet#1.loadView()", "Sheet#1.viewDidLoad()", "Sheet#1.viewWillAppear(_:)",
      "Sheet#1.viewIsAppearing(_:)", "Sheet#1.viewWillLayoutSubviews()", "Sheet#1.viewDidLayoutSubviews()", "Sheet#1.viewDidAppear(_:)"])
    try h.perform(.swipeDown(cancel: true))
    #expect(h.takeCalls() == ["Sheet#1.viewWillDisappear(_:)", "Sheet#1.viewWillAppear(_:)", "Sheet#1.viewIsAppearing(_:)",
      "Sheet#1.viewDidAppear(_:)"])
    try h.perform(.swipeDown(cancel: false))
    #expect(h.takeCalls() == ["Sheet#1.viewWillDisappear(_:)", "Sheet#1.viewDidDisappear(_:)"])
  }

  @Test("§13 iOS 12 present without a style is fullScreen (S34)")
  func ios12DefaultStyle() throws {
    let h = try launched(ios: 12)
    try h.perform(.present("Sheet", style: nil, navigation: false))
    #expect(h.takeCalls().last == NL + "viewDidDisappear(_:)")
  }

  @Test("§14 tab switch: the new tab's will comes first (T18)")
  func tabs() throws {
    let app = ScriptedApp(layout: AppLayout(name: "Shop", roots: ["Feed", "Cart"], container: .tabs))
    let h = Harness(ios: 17, app: app)
    try h.perform(.launch(url: nil)); _ = h.takeCalls()
    try h.perform(.selectTab(2))
    #expect(h.takeCalls() == ["Cart#1.loadView()", "Cart#1.viewDidLoad()", "Cart#1.viewWillAppear(_:)", "Cart#1.viewIsAppearing(_:)",
      "Cart#1.viewWillLayoutSubviews()", "Cart#1.viewDidLayoutSubviews()", "Feed#1.viewWillDisappear(_:)",
      "Feed#1.viewDidDisappear(_:)", "Cart#1.viewDidAppear(_:)"])
    try h.perform(.selectTab(1))
    #expect(h.takeCalls().first == "Feed#1.viewWillAppear(_:)")  // loaded once
  }

  @Test("§15 rotation: traits, size, trait change, layout (T-sd, S21)")
  func rotation() throws {
    let h = try launched()
    try h.perform(.rotate(.landscape))
    #expect(h.takeCalls() == [NL + "willTransition(to:with:)", NL + "viewWillTransition(to:with:)",
      NL + "traitCollectionDidChange(_:)", NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()"])
  }

  @Test("§11 memory warning: app delegate, every loaded controller, hidden ones too (S24, T19)")
  func memoryWarning() throws {
    let h = try launched()
    try h.perform(.push("Detail")); _ = h.takeCalls()
    try h.perform(.memoryWarning)
    #expect(h.takeCalls() == [AD + "applicationDidReceiveMemoryWarning(_:)", NL + "didReceiveMemoryWarning()",
                              "Detail#1.didReceiveMemoryWarning()"])
  }

  @Test("a push from viewDidAppear nests at depth 1 (UIKit order)")
  func nestedPush() throws {
    let app = ScriptedApp()
    app.handlers["NoteList.viewDidAppear"] = { sim in
      if sim.state.controller("Detail#1") == nil { try? sim.appPush("Detail") }
    }
    let h = Harness(ios: 17, app: app)
    try h.perform(.launch(url: nil))
    let nested = h.allEvents.compactMap { e -> Int? in
      if case let .callback(.viewDidLoad, "Detail#1", _, depth, _, _) = e.body { return depth }; return nil
    }
    #expect(nested == [1])
    #expect(try h.replayMatches())
  }
}

@Suite struct URLAndPrewarmTests {
  @Test("§17 16.1 cold deep link, sceneless: open before didBecomeActive (T7)")
  func coldURLSceneless() throws {
    let h = Harness(ios: 12)
    try h.perform(.openURL("notes://1"))
    let calls = h.takeCalls()
    #expect(Array(calls.suffix(3)) == [AD + "application(_:open:options:)", AD + "applicationDidBecomeActive(_:)", NL + "viewDidAppear(_:)"])
  }

  @Test("§17 16.2 scene apps: cold URL arrives in willConnectTo, warm in openURLContexts (S36, T34)")
  func urlScene() throws {
    let h = Harness(ios: 17)
    try h.perform(.openURL("notes://1"))
    #expect(h.takeEvents().contains { if case .callback(.willConnectTo, _, _, _, "notes://1", _) = $0 { return true }; return false })
    _ = h.takeCalls()
    try h.perform(.home, .openURL("notes://2"))
    #expect(Array(h.takeCalls().suffix(3)) == [SD + "sceneWillEnterForeground(_:)", SD + "scene(_:openURLContexts:)", SD + "sceneDidBecomeActive(_:)"])
  }

  @Test("§16 prewarm runs no app code by default; the tap runs the whole launch (S2, F4)")
  func prewarm() throws {
    let h = Harness(ios: 17)
    try h.perform(.prewarm)
    #expect(h.takeCalls() == [])
    #expect(h.sim.state.appState == .suspended)
    try h.perform(.launch(url: nil))
    #expect(h.takeCalls() == launchScene(ios: 17))
    let h12 = Harness(ios: 12)
    #expect(throws: ScenarioError.self) { try h12.sim.perform(.prewarm) }
  }
}
