import EventStore
import Testing
@testable import Lifecycle

// More pinned sequences: variants of LIFECYCLE.md Part 2 that the first suite does not cover.

private let AD = "AppDelegate.", SD = "SceneDelegate.", NL = "NoteList#1."

private func launched(ios: Int = 17, scenes: Bool? = nil, app: ScriptedApp = ScriptedApp(),
                      knobs: (inout Profile) -> Void = { _ in }) throws -> Harness {
  let h = Harness(ios: ios, scenes: scenes, app: app, knobs: knobs)
  try h.perform(.launch(url: nil))
  _ = h.takeCalls(); _ = h.takeEvents()
  return h
}

private func notifications(_ events: [EventBody]) -> [String] {
  events.compactMap { if case let .notification(n, _, _) = $0 { return n }; return nil }
}

@Suite struct MoreConformanceTests {
  @Test("§3 2(a) home, sceneless: delegate first, then the notification (S11, T21)")
  func homeNotificationsSceneless() throws {
    let h = try launched(ios: 12)
    try h.perform(.home)
    #expect(notifications(h.takeEvents()) == ["UIApplication.willResignActiveNotification", "UIApplication.didEnterBackgroundNotification"])
  }

  @Test("§3 2(b) home, scene app: scene notification, then the application's (S16, S17)")
  func homeNotificationsScene() throws {
    let h = try launched()
    try h.perform(.home)
    #expect(notifications(h.takeEvents()) == ["UIScene.willDeactivateNotification", "UIApplication.willResignActiveNotification",
                                             "UIScene.didEnterBackgroundNotification", "UIApplication.didEnterBackgroundNotification"])
  }

  @Test("§4 3(a) return, sceneless: willEnterForeground then its notification, then active (T7, T21, S12)")
  func returnNotifications() throws {
    let h = try launched(ios: 12)
    try h.perform(.home); _ = h.takeEvents()
    try h.perform(.launch(url: nil))
    #expect(notifications(h.takeEvents()) == ["UIApplication.willEnterForegroundNotification", "UIApplication.didBecomeActiveNotification"])
  }

  @Test("§5 lock, scene app, iOS 26 (inferred from S30)")
  func lockScene26() throws {
    let h = try launched(ios: 26)
    try h.perform(.lock, .unlock)
    #expect(h.takeCalls() == [SD + "sceneWillResignActive(_:)", SD + "sceneDidEnterBackground(_:)"] +
            Array(repeating: NL + "traitCollectionDidChange(_:)", count: 2) +
            [SD + "sceneWillEnterForeground(_:)", SD + "sceneDidBecomeActive(_:)"])
  }

  @Test("§5 protected data callbacks reach an app still running in the background (S37)")
  func protectedDataWhileRunning() throws {
    let app = ScriptedApp()
    app.handlers["applicationDidEnterBackground"] = { sim in _ = try sim.beginBackgroundTask(name: "upload") }
    let h = try launched(ios: 12, app: app)
    try h.perform(.lock, .advance(us: 12_000_000)); _ = h.takeCalls()
    #expect(h.sim.state.protectedDataAvailable == false)
    try h.perform(.unlock)
    #expect(h.takeCalls() == [AD + "applicationProtectedDataDidBecomeAvailable(_:)", AD + "applicationWillEnterForeground(_:)",
                              AD + "applicationDidBecomeActive(_:)"])
  }

  @Test("§5 protected data goes away 10 s after the lock, while running (S37, knob protectedDataLockDelay)")
  func protectedDataGoes() throws {
    let app = ScriptedApp()
    app.handlers["applicationDidEnterBackground"] = { sim in _ = try sim.beginBackgroundTask(name: "upload") }
    let h = try launched(ios: 12, app: app)
    try h.perform(.lock); _ = h.takeCalls()
    try h.perform(.advance(us: 9_000_000))
    #expect(h.takeCalls() == [])
    try h.perform(.advance(us: 2_000_000))
    #expect(h.takeCalls() == [AD + "applicationProtectedDataWillBecomeUnavailable(_:)"])
  }

  @Test("§6 call answered, scene app: background (T-SO3712979, S30)")
  func callAnsweredScene() throws {
    let h = try launched()
    try h.perform(.interrupt(.call), .endInterrupt(.answered))
    #expect(h.takeCalls() == [SD + "sceneWillResignActive(_:)", SD + "sceneDidEnterBackground(_:)"] +
            Array(repeating: NL + "traitCollectionDidChange(_:)", count: 2))
  }

  @Test("§8 force quit of a sceneless app running a background task: willTerminate (T27, S10)")
  func forceQuitBackgroundRunning() throws {
    let app = ScriptedApp()
    app.handlers["applicationDidEnterBackground"] = { sim in _ = try sim.beginBackgroundTask(name: "upload") }
    let h = try launched(ios: 12, app: app)
    try h.perform(.home); _ = h.takeCalls()
    #expect(h.sim.state.appState == .background)
    try h.perform(.forceQuit)
    #expect(h.takeCalls() == [AD + "applicationWillTerminate(_:)"])
  }

  @Test("§8 willTerminate gets 5 s; the process ends anyway (S10)")
  func willTerminateBudget() throws {
    let app = ScriptedApp()
    app.handlers["applicationWillTerminate"] = { sim in try sim.work(us: 8_000_000) }
    let h = try launched(ios: 12, app: app)
    try h.perform(.appSwitcher, .forceQuit)
    #expect(h.sim.clock == 5_000_000)
    #expect(h.sim.state.terminations.last == Termination(
      reason: .user, code: nil, description: "applicationWillTerminate(_:) did not return within 5.00 seconds; the process was ended"))
  }

  @Test("§9 knob backgroundTaskAllowance = 40 s, expirationLead = 0 (S7)")
  func allowanceKnobs() throws {
    let app = ScriptedApp()
    app.handlers["applicationDidEnterBackground"] = { sim in _ = try sim.beginBackgroundTask(name: "t") }
    let h = try launched(ios: 17, scenes: false, app: app) { p in
      try? p.set("backgroundTaskAllowance", .number(40))
      try? p.set("expirationLead", .number(0))
    }
    try h.perform(.home, .advance(us: 60_000_000))
    let times = h.allEvents.compactMap { e -> Int64? in
      switch e.body {
      case .callback(.expirationHandler, _, _, _, _, _), .terminated: return e.t
      default: return nil
      }
    }
    #expect(times == [40_000_000, 40_000_000])
  }

  @Test("§9 backgroundTimeRemaining: DBL_MAX in the foreground, counting down in the background (S8, F2)")
  func backgroundTimeRemaining() throws {
    let app = ScriptedApp()
    var seen: [Int64?] = []
    app.handlers["applicationDidEnterBackground"] = { sim in
      seen.append(sim.backgroundTimeRemaining_us)
      _ = try sim.beginBackgroundTask(name: "t")
      try sim.work(us: 2_000_000)
      seen.append(sim.backgroundTimeRemaining_us)
    }
    let h = try launched(ios: 17, scenes: false, app: app)
    #expect(h.sim.backgroundTimeRemaining_us == nil)
    try h.perform(.home)
    #expect(seen == [30_000_000, 28_000_000])
  }

  @Test("§15 rotation while away: trait news before willEnterForeground (T24)")
  func rotationWhileAway() throws {
    let h = try launched(ios: 12)
    try h.perform(.home, .rotate(.landscape)); _ = h.takeCalls()
    try h.perform(.launch(url: nil))
    #expect(h.takeCalls() == [NL + "willTransition(to:with:)", NL + "viewWillTransition(to:with:)", NL + "traitCollectionDidChange(_:)",
      NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()", AD + "applicationWillEnterForeground(_:)",
      AD + "applicationDidBecomeActive(_:)"])
  }

  @Test("§16 knob prewarmRunsDidFinish = always: didFinish at prewarm, not again at the tap (F5, F6)")
  func prewarmRunsDidFinish() throws {
    let h = Harness(ios: 17) { $0.prewarmRunsDidFinish = .always }
    try h.perform(.prewarm)
    #expect(h.takeCalls() == [AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)"])
    try h.perform(.launch(url: nil))
    #expect(h.takeCalls().prefix(3) == [AD + "application(_:configurationForConnecting:options:)", NL + "init(coder:)", SD + "scene(_:willConnectTo:options:)"])
  }

  @Test("§17 16.3 a suspended sceneless app woken by a push gets didEnterBackground again (S3, knob)")
  func resumeForPushSceneless() throws {
    let app = ScriptedApp()
    app.handlers["didReceiveRemoteNotification"] = { sim in try sim.complete(sim.state.completions.last!.id) }
    let h = try launched(ios: 12, app: app)
    try h.perform(.home); _ = h.takeCalls()
    try h.perform(.backgroundLaunch(.push))
    #expect(h.takeCalls() == [AD + "applicationDidEnterBackground(_:)", AD + "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"])
    #expect(h.sim.state.appState == .suspended)
    let off = Harness(ios: 12, app: app) { $0.resumeBackgroundEventCallsDidEnterBackground = false }
    app.simulator = off.sim
    try off.perform(.launch(url: nil), .home); _ = off.takeCalls()
    try off.perform(.backgroundLaunch(.push))
    #expect(off.takeCalls() == [AD + "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"])
  }

  @Test("§17 16.1 a deep link into the active app: open only (T7)")
  func urlWhileActive() throws {
    let h = try launched(ios: 12)
    try h.perform(.openURL("notes://3"))
    #expect(h.takeCalls() == [AD + "application(_:open:options:)"])
  }

  @Test("§13 a navigation controller presented as a sheet takes pushes (S34)")
  func pushInsidePresentedNavigation() throws {
    let h = try launched()
    try h.perform(.present("Sheet", style: .formSheet, navigation: true)); _ = h.takeCalls()
    try h.perform(.push("Detail"))
    #expect(h.takeCalls() == ["Detail#1.init(coder:)", "Detail#1.loadView()", "Detail#1.viewDidLoad()", "Sheet#1.viewWillDisappear(_:)",
      "Detail#1.viewWillAppear(_:)", "Detail#1.viewIsAppearing(_:)", "Detail#1.viewWillLayoutSubviews()",
      "Detail#1.viewDidLayoutSubviews()", "Sheet#1.viewDidDisappear(_:)", "Detail#1.viewDidAppear(_:)"])
    try h.perform(.dismiss)
    #expect(h.takeCalls() == ["Detail#1.viewWillDisappear(_:)", "Detail#1.viewDidDisappear(_:)"])
    #expect(try h.replayMatches())
  }

  @Test("§11 memory warning with a sheet: the presented controller last (S24, T19)")
  func memoryWarningWithSheet() throws {
    let h = try launched()
    try h.perform(.present("Sheet", style: nil, navigation: false)); _ = h.takeCalls()
    try h.perform(.memoryWarning)
    #expect(h.takeCalls() == [AD + "applicationDidReceiveMemoryWarning(_:)", NL + "didReceiveMemoryWarning()", "Sheet#1.didReceiveMemoryWarning()"])
  }

  @Test("§12 iOS 12 push: no viewIsAppearing (S22)")
  func push12() throws {
    let h = try launched(ios: 12)
    try h.perform(.push("Detail"))
    #expect(h.takeCalls() == ["Detail#1.init(coder:)", "Detail#1.loadView()", "Detail#1.viewDidLoad()", NL + "viewWillDisappear(_:)",
      "Detail#1.viewWillAppear(_:)", "Detail#1.viewWillLayoutSubviews()", "Detail#1.viewDidLayoutSubviews()",
      NL + "viewDidDisappear(_:)", "Detail#1.viewDidAppear(_:)"])
  }

  @Test("§12 iOS 26 pop: updateProperties before the revealed controller's layout (S32)")
  func pop26() throws {
    let h = try launched(ios: 26)
    try h.perform(.push("Detail")); _ = h.takeCalls()
    try h.perform(.pop)
    #expect(h.takeCalls() == ["Detail#1.viewWillDisappear(_:)", NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)",
      NL + "updateProperties()", NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()",
      "Detail#1.viewDidDisappear(_:)", NL + "viewDidAppear(_:)"])
  }

  @Test("§15 a controller hidden during a rotation hears of it when it comes back (T24; traits: UIContentContainer, viewIsAppearing docs)")
  func rotationWhileHidden() throws {
    let h = try launched()
    try h.perform(.push("Detail"), .rotate(.landscape)); _ = h.takeCalls()
    try h.perform(.pop)
    #expect(h.takeCalls() == ["Detail#1.viewWillDisappear(_:)", NL + "willTransition(to:with:)", NL + "viewWillAppear(_:)",
      NL + "traitCollectionDidChange(_:)", NL + "viewIsAppearing(_:)", NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()",
      "Detail#1.viewDidDisappear(_:)", NL + "viewDidAppear(_:)"])
    try h.perform(.push("Detail")); _ = h.takeCalls()
    try h.perform(.pop)
    #expect(!h.takeCalls().contains(NL + "willTransition(to:with:)"))  // told once
    #expect(try h.replayMatches())
  }
}
