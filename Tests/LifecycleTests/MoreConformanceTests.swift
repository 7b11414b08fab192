import Testing
@testable import Lifecycle

// More pinned sequences: variants of docs/model.md's rules that the first suite does not
// cover ("§n" is that document's section; source keys are its Sources list's). The harness
// is exhaustive and checks replay after every test (see Harness).

private let AD = "AppDelegate.", SD = "SceneDelegate.", NL = "NoteList#1."
private let snapshot = Array(repeating: NL + "traitCollectionDidChange(_:)", count: 2)

/// An app that begins a background task "upload" in `applicationDidEnterBackground` and never ends it.
private func appBeginningATaskInTheBackground() -> ScriptedApp {
  let app = ScriptedApp()
  app.handlers["applicationDidEnterBackground"] = { sim in _ = try sim.beginBackgroundTask(name: "upload") }
  return app
}

/// A launched app whose launch has been claimed (the launch itself is ColdLaunchTests' subject).
private func launched(ios: Int = 17, scenes: Bool? = nil, app: ScriptedApp = ScriptedApp(),
                      knobs: (inout Profile) -> Void = { _ in },
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> Harness {
  let h = Harness(ios: ios, scenes: scenes, app: app, knobs: knobs, sourceLocation: sourceLocation)
  try h.launch(sourceLocation: sourceLocation)
  return h
}

@Suite struct MoreConformanceTests {
  @Test("§1 home, sceneless: delegate first, then the notification (S11, T21)")
  func homeNotificationsSceneless() throws {
    let h = try launched(ios: 12)
    try h.perform(.home)
    h.expectCalls([AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)"])
    h.expectNotifications(["UIApplication.willResignActiveNotification", "UIApplication.didEnterBackgroundNotification"])
    h.expectSystem(["suspended"])
    // each notification follows its delegate call
    let order = h.allEvents.compactMap { e -> String? in
      switch e.body {
      case let .callbackDelivered(cb, _, _, _, _): return cb.key
      case let .notificationPosted(name, _, _): return name
      default: return nil
      }
    }
    #expect(Array(order.suffix(4)) == ["applicationWillResignActive", "UIApplication.willResignActiveNotification",
                                       "applicationDidEnterBackground", "UIApplication.didEnterBackgroundNotification"])
  }

  @Test("§1 home, scene app: scene notification, then the application's (S16, S17)")
  func homeNotificationsScene() throws {
    let h = try launched()
    try h.perform(.home)
    h.expectCalls([SD + "sceneWillResignActive(_:)", SD + "stateRestorationActivity(for:)", SD + "sceneDidEnterBackground(_:)"] + snapshot)
    h.expectNotifications(["UIScene.willDeactivateNotification", "UIApplication.willResignActiveNotification",
                           "UIScene.didEnterBackgroundNotification", "UIApplication.didEnterBackgroundNotification"])
    h.expectSystem(["suspended"])
  }

  @Test("§3 return, sceneless: willEnterForeground then its notification, then active (T7, T21, S12)")
  func returnNotifications() throws {
    let h = try launched(ios: 12)
    try h.perform(.home)
    h.expectHome()
    try h.perform(.launch(url: nil))
    h.expectCalls([AD + "applicationWillEnterForeground(_:)", AD + "applicationDidBecomeActive(_:)"])
    h.expectNotifications(["UIApplication.willEnterForegroundNotification", "UIApplication.didBecomeActiveNotification"])
    h.expectSystem(["resumed"])
  }

  @Test("§3 lock, scene app, iOS 26 (inferred from S30)")
  func lockScene26() throws {
    let h = try launched(ios: 26)
    try h.perform(.lock, .unlock)
    h.expectCalls([SD + "sceneWillResignActive(_:)", SD + "stateRestorationActivity(for:)", SD + "sceneDidEnterBackground(_:)"] + snapshot +
                  [SD + "sceneWillEnterForeground(_:)", SD + "sceneDidBecomeActive(_:)"])
    h.expectNotifications(Posted.home(scenes: true) + Posted.back(scenes: true))
    h.expectSystem(["suspended", "resumed"])
  }

  @Test("§12 protected data callbacks reach an app still running in the background (S37)")
  func protectedDataWhileRunning() throws {
    let h = try launched(ios: 12, app: appBeginningATaskInTheBackground())
    try h.perform(.lock, .advance(us: 12_000_000))
    h.expectCalls([AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)",
                   AD + "applicationProtectedDataWillBecomeUnavailable(_:)"])
    h.expectNotifications(Posted.home(scenes: false) + ["UIApplication.protectedDataWillBecomeUnavailableNotification"])
    #expect(h.sim.state.protectedDataAvailable == false)
    try h.perform(.unlock)
    h.expectCalls([AD + "applicationProtectedDataDidBecomeAvailable(_:)", AD + "applicationWillEnterForeground(_:)",
                   AD + "applicationDidBecomeActive(_:)"])
    h.expectNotifications(["UIApplication.protectedDataDidBecomeAvailableNotification"] + Posted.back(scenes: false))
  }

  @Test("§12 protected data goes away 10 s after the lock, while running (S37, knob protectedDataLockDelay)")
  func protectedDataGoes() throws {
    let h = try launched(ios: 12, app: appBeginningATaskInTheBackground())
    try h.perform(.lock)
    h.expectHome(system: [])  // a task keeps it running
    try h.perform(.advance(us: 9_000_000))
    h.expectCalls([])
    try h.perform(.advance(us: 2_000_000))
    h.expectCalls([AD + "applicationProtectedDataWillBecomeUnavailable(_:)"])
    h.expectNotifications(["UIApplication.protectedDataWillBecomeUnavailableNotification"])
  }

  @Test("§7 call answered, scene app: background (T-SO3712979, S30)")
  func callAnsweredScene() throws {
    let h = try launched()
    try h.perform(.interrupt(.call), .endInterrupt(.answered))
    h.expectHome()
  }

  @Test("§6 force quit of a sceneless app running a background task: willTerminate (T27, S10)")
  func forceQuitBackgroundRunning() throws {
    let h = try launched(ios: 12, app: appBeginningATaskInTheBackground())
    try h.perform(.home)
    h.expectHome(system: [])  // a task keeps it running
    #expect(h.sim.state.appState == .background)
    try h.perform(.forceQuit)
    h.expectCalls([AD + "applicationWillTerminate(_:)"])
    h.expectNotifications(["UIApplication.willTerminateNotification"])
    h.expectSystem(["terminated user: force quit from the app switcher"])
  }

  @Test("§6 willTerminate gets 5 s; the process ends anyway (S10)")
  func willTerminateBudget() throws {
    let app = ScriptedApp()
    app.handlers["applicationWillTerminate"] = { sim in try sim.work(us: 8_000_000) }
    let h = try launched(ios: 12, app: app)
    try h.perform(.appSwitcher, .forceQuit)
    h.expectCalls([AD + "applicationWillResignActive(_:)", AD + "applicationWillTerminate(_:)"])
    h.expectNotifications(Posted.resignActive(scenes: false))
    h.expectSystem(["terminated user: applicationWillTerminate(_:) did not return within 5.00 seconds; the process was ended"])
    #expect(h.sim.clock == 5_000_000)
  }

  @Test("§4 knob backgroundTaskAllowance = 40 s, expirationLead = 0 (S7)")
  func allowanceKnobs() throws {
    let app = ScriptedApp()
    app.handlers["applicationDidEnterBackground"] = { sim in _ = try sim.beginBackgroundTask(name: "t") }
    let h = try launched(ios: 17, scenes: false, app: app) { p in
      try? p.set("backgroundTaskAllowance", .number(40))
      try? p.set("expirationLead", .number(0))
    }
    try h.perform(.home, .advance(us: 60_000_000))
    h.expectCalls([AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)"] + snapshot
                  + ["BackgroundTask#1.expirationHandler()"])
    h.expectNotifications(Posted.home(scenes: false))
    h.expectSystem(["terminated background_task_expired 0x2182bad2: background task \"t\" (1) was not ended: exhausted background time allowance of 40.00 seconds"])
    let times = h.allEvents.compactMap { e -> Int64? in
      switch e.body {
      case .callbackDelivered(.expirationHandler, _, _, _, _), .terminated: return e.t
      default: return nil
      }
    }
    #expect(times == [40_000_000, 40_000_000])
  }

  @Test("§4 backgroundTimeRemaining: DBL_MAX in the foreground, counting down in the background (S8, F2)")
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
    h.expectCalls([AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)"] + snapshot)
    h.expectNotifications(Posted.home(scenes: false))
  }

  @Test("§10 rotation while away: trait news before willEnterForeground (T24)")
  func rotationWhileAway() throws {
    let h = try launched(ios: 12)
    try h.perform(.home, .rotate(.landscape))
    h.expectHome()
    try h.perform(.launch(url: nil))
    h.expectCalls([NL + "willTransition(to:with:)", NL + "viewWillTransition(to:with:)", NL + "traitCollectionDidChange(_:)",
      NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()", AD + "applicationWillEnterForeground(_:)",
      AD + "applicationDidBecomeActive(_:)"])
    h.expectNotifications(Posted.back(scenes: false))
    h.expectSystem(["resumed"])
  }

  @Test("§2 knob prewarmRunsDidFinish = always: didFinish at prewarm, not again at the tap (F5, F6)")
  func prewarmRunsDidFinish() throws {
    let h = Harness(ios: 17) { $0.prewarmRunsDidFinish = .always }
    try h.perform(.prewarm)
    h.expectCalls([AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)"])
    h.expectNotifications(["UIApplication.didFinishLaunchingNotification"])
    h.expectSystem(["started prewarm, background"])
    try h.perform(.launch(url: nil))
    h.expectCalls(Array(StandardLaunch.sceneCalls(ios: 17).dropFirst(2)))
    h.expectNotifications(Array(StandardLaunch.sceneNotifications.dropFirst()))
    h.expectSystem(["continued background"])
  }

  @Test("§2 a suspended sceneless app woken by a push gets didEnterBackground again (S3, knob)")
  func resumeForPushSceneless() throws {
    let app = ScriptedApp()
    app.handlers["didReceiveRemoteNotification"] = { sim in try sim.complete(sim.state.completions.last!.id) }
    let h = try launched(ios: 12, app: app)
    try h.perform(.home)
    h.expectHome()
    try h.perform(.backgroundLaunch(.push))
    h.expectCalls([AD + "applicationDidEnterBackground(_:)", AD + "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"])
    h.expectNotifications(["UIApplication.didEnterBackgroundNotification"])
    h.expectSystem(["resumed", "suspended"])
    #expect(h.sim.state.appState == .suspended)
    let off = Harness(ios: 12, app: app) { $0.resumeBackgroundEventCallsDidEnterBackground = false }
    try off.launch()
    try off.perform(.home)
    off.expectHome()
    try off.perform(.backgroundLaunch(.push))
    off.expectCalls([AD + "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"])
    off.expectSystem(["resumed", "suspended"])
  }

  @Test("§3 a deep link into the active app: open only (T7)")
  func urlWhileActive() throws {
    let h = try launched(ios: 12)
    try h.perform(.openURL("notes://3"))
    h.expectCalls([AD + "application(_:open:options:)"])
  }

  @Test("§9 a navigation controller presented as a sheet takes pushes (S34)")
  func pushInsidePresentedNavigation() throws {
    let h = try launched()
    try h.perform(.present("Sheet", style: .formSheet, navigation: true))
    h.expectCalls(["Sheet#1.init(coder:)", "Sheet#1.loadView()", "Sheet#1.viewDidLoad()", "Sheet#1.viewWillAppear(_:)",
      "Sheet#1.viewIsAppearing(_:)", "Sheet#1.viewWillLayoutSubviews()", "Sheet#1.viewDidLayoutSubviews()", "Sheet#1.viewDidAppear(_:)"])
    try h.perform(.push("Detail"))
    h.expectCalls(["Detail#1.init(coder:)", "Detail#1.loadView()", "Detail#1.viewDidLoad()", "Sheet#1.viewWillDisappear(_:)",
      "Detail#1.viewWillAppear(_:)", "Detail#1.viewIsAppearing(_:)", "Detail#1.viewWillLayoutSubviews()",
      "Detail#1.viewDidLayoutSubviews()", "Sheet#1.viewDidDisappear(_:)", "Detail#1.viewDidAppear(_:)"])
    try h.perform(.dismiss)
    h.expectCalls(["Detail#1.viewWillDisappear(_:)", "Detail#1.viewDidDisappear(_:)"])
  }

  @Test("§11 memory warning with a sheet: the presented controller last (S24, T19)")
  func memoryWarningWithSheet() throws {
    let h = try launched()
    try h.perform(.present("Sheet", style: nil, navigation: false))
    h.expectCalls(["Sheet#1.init(coder:)", "Sheet#1.loadView()", "Sheet#1.viewDidLoad()", "Sheet#1.viewWillAppear(_:)",
      "Sheet#1.viewIsAppearing(_:)", "Sheet#1.viewWillLayoutSubviews()", "Sheet#1.viewDidLayoutSubviews()", "Sheet#1.viewDidAppear(_:)"])
    try h.perform(.memoryWarning)
    h.expectCalls([AD + "applicationDidReceiveMemoryWarning(_:)", NL + "didReceiveMemoryWarning()", "Sheet#1.didReceiveMemoryWarning()"])
    h.expectNotifications(["UIApplication.didReceiveMemoryWarningNotification"])
  }

  @Test("§8 iOS 12 push: no viewIsAppearing (S22)")
  func push12() throws {
    let h = try launched(ios: 12)
    try h.perform(.push("Detail"))
    h.expectCalls(["Detail#1.init(coder:)", "Detail#1.loadView()", "Detail#1.viewDidLoad()", NL + "viewWillDisappear(_:)",
      "Detail#1.viewWillAppear(_:)", "Detail#1.viewWillLayoutSubviews()", "Detail#1.viewDidLayoutSubviews()",
      NL + "viewDidDisappear(_:)", "Detail#1.viewDidAppear(_:)"])
  }

  @Test("§8 iOS 26 pop: updateProperties before the revealed controller's layout (S32)")
  func pop26() throws {
    let h = try launched(ios: 26)
    try h.perform(.push("Detail"))
    h.expectCalls(["Detail#1.init(coder:)", "Detail#1.loadView()", "Detail#1.viewDidLoad()", NL + "viewWillDisappear(_:)",
      "Detail#1.viewWillAppear(_:)", "Detail#1.viewIsAppearing(_:)", "Detail#1.updateProperties()",
      "Detail#1.viewWillLayoutSubviews()", "Detail#1.viewDidLayoutSubviews()", NL + "viewDidDisappear(_:)", "Detail#1.viewDidAppear(_:)"])
    try h.perform(.pop)
    h.expectCalls(["Detail#1.viewWillDisappear(_:)", NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)",
      NL + "updateProperties()", NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()",
      "Detail#1.viewDidDisappear(_:)", NL + "viewDidAppear(_:)"])
  }

  @Test("§10 a controller hidden during a rotation hears of it when it comes back (T24; traits: UIContentContainer, viewIsAppearing docs)")
  func rotationWhileHidden() throws {
    let h = try launched()
    try h.perform(.push("Detail"), .rotate(.landscape))
    h.expectCalls(["Detail#1.init(coder:)", "Detail#1.loadView()", "Detail#1.viewDidLoad()", NL + "viewWillDisappear(_:)",
      "Detail#1.viewWillAppear(_:)", "Detail#1.viewIsAppearing(_:)", "Detail#1.viewWillLayoutSubviews()",
      "Detail#1.viewDidLayoutSubviews()", NL + "viewDidDisappear(_:)", "Detail#1.viewDidAppear(_:)",
      // only the visible controller hears of the rotation now
      "Detail#1.willTransition(to:with:)", "Detail#1.viewWillTransition(to:with:)", "Detail#1.traitCollectionDidChange(_:)",
      "Detail#1.viewWillLayoutSubviews()", "Detail#1.viewDidLayoutSubviews()"])
    try h.perform(.pop)
    h.expectCalls(["Detail#1.viewWillDisappear(_:)", NL + "willTransition(to:with:)", NL + "viewWillAppear(_:)",
      NL + "traitCollectionDidChange(_:)", NL + "viewIsAppearing(_:)", NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()",
      "Detail#1.viewDidDisappear(_:)", NL + "viewDidAppear(_:)"])
    try h.perform(.push("Detail"))
    h.expectCalls(["Detail#2.init(coder:)", "Detail#2.loadView()", "Detail#2.viewDidLoad()", NL + "viewWillDisappear(_:)",
      "Detail#2.viewWillAppear(_:)", "Detail#2.viewIsAppearing(_:)", "Detail#2.viewWillLayoutSubviews()",
      "Detail#2.viewDidLayoutSubviews()", NL + "viewDidDisappear(_:)", "Detail#2.viewDidAppear(_:)"])
    try h.perform(.pop)
    // told once: no second willTransition(to:with:)
    h.expectCalls(["Detail#2.viewWillDisappear(_:)", NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)",
      NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()", "Detail#2.viewDidDisappear(_:)", NL + "viewDidAppear(_:)"])
  }
}

@Suite struct HarnessTests {
  @Test("the harness records an issue for every event left unasserted")
  func unassertedEventsFail() throws {
    var left: [String] = []
    withKnownIssue {
      let h = Harness(ios: 12)
      try h.perform(.launch(url: nil))
      h.expectCalls(StandardLaunch.scenelessCalls(ios: 12))
      left = h.unclaimedEvents()
    }
    #expect(left == ["notification UIApplication.didFinishLaunchingNotification",
                     "notification UIApplication.didBecomeActiveNotification", "system started foreground, inactive"])
  }

  @Test("skipRemainingEvents claims everything so far, and nothing after")
  func skipThenExpect() throws {
    let h = Harness(ios: 12)
    try h.perform(.launch(url: nil))
    h.skipRemainingEvents()
    #expect(h.unclaimedEvents().isEmpty)
    try h.perform(.memoryWarning)
    #expect(h.unclaimedEvents() == ["call AppDelegate.applicationDidReceiveMemoryWarning(_:)",
                                    "call NoteList#1.didReceiveMemoryWarning()",
                                    "notification UIApplication.didReceiveMemoryWarningNotification"])
    h.skipRemainingEvents()
  }
}
