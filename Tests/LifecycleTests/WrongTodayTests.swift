import Testing
@testable import Lifecycle

// Issue 14, "Wrong today": five sequences the model got wrong, each pinned whole (callbacks,
// notifications, system events; replay is checked by the harness) in every profile where it
// applies and differs. Sources are docs/model.md's keys.

private let AD = "AppDelegate.", SD = "SceneDelegate.", NL = "NoteList#1."

/// A sceneless background launch with a root view controller: the root is built before
/// willFinish and appears (unseen, not animated) after didFinish, before didEnterBackground (W3).
private func scenelessBackgroundLaunch(ios: Int, event: String) -> [String] {
  [NL + "init(coder:)", AD + "application(_:willFinishLaunchingWithOptions:)",
   AD + "application(_:didFinishLaunchingWithOptions:)", NL + "loadView()", NL + "viewDidLoad()"]
    + Seen.appearing(NL, ios: ios) + [NL + "viewDidAppear(_:)", AD + "applicationDidEnterBackground(_:)", AD + event]
}

private func backgroundLaunchSystem(ios: Int, scenes: Bool) -> [String] {
  ["started background, background"] + (!scenes && ios >= 26 ? [StandardLaunch.sceneRequiredNote] : [])
}

private let pushHandler = "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"
private let fetchHandler = "application(_:performFetchWithCompletionHandler:)"

@Suite struct CompletionDeadlineInForegroundTests {
  @Test("W1 a completion never called does not kill the foreground app; back in the background it has 30 s (S33, S6, F1)",
        arguments: [PlatformUnderTest(ios: 12, scenes: false), PlatformUnderTest(ios: 17, scenes: false),
                    PlatformUnderTest(ios: 13, scenes: true), PlatformUnderTest(ios: 17, scenes: true)])
  func foregroundSurvives(_ p: PlatformUnderTest) throws {
    let app = ScriptedApp()
    // iOS 12 is pinned with a fetch (its own kill code), the others with a silent push.
    let fetch = p.ios == 12
    app.handlers[fetch ? "performFetchWithCompletionHandler" : "didReceiveRemoteNotification"] = { _ in }
    let h = Harness(ios: p.ios, scenes: p.scenes, app: app)
    try h.perform(.backgroundLaunch(fetch ? .fetch : .push))
    let handler = fetch ? fetchHandler : pushHandler
    if p.scenes {
      h.expectCalls([AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)",
                     AD + handler])
      h.expectNotifications(["UIApplication.didFinishLaunchingNotification"])
    } else {
      h.expectCalls(scenelessBackgroundLaunch(ios: p.ios, event: handler))
      h.expectNotifications(["UIApplication.didFinishLaunchingNotification", "UIApplication.didEnterBackgroundNotification"])
    }
    h.expectSystem(backgroundLaunchSystem(ios: p.ios, scenes: p.scenes))  // the pending completion keeps it running
    try h.perform(.launch(url: nil))
    if p.scenes {
      h.expectCalls(Array(StandardLaunch.sceneCalls(ios: p.ios).dropFirst(2)))
      h.expectNotifications(Array(StandardLaunch.sceneNotifications.dropFirst()))
    } else {
      h.expectCalls([AD + "applicationWillEnterForeground(_:)", AD + "applicationDidBecomeActive(_:)"])
      h.expectNotifications(Posted.back(scenes: false))
    }
    h.expectSystem([])
    try h.perform(.advance(us: 40_000_000))  // past the 30 s the completion would have had in the background
    h.expectSystem([])
    #expect(h.sim.state.applicationState == .active)
    try h.perform(.home)
    h.expectHome(system: [])  // still not suspended: the completion is outstanding
    let backgroundAt = h.sim.clock
    try h.perform(.advance(us: 29_000_000))
    h.expectSystem([])
    try h.perform(.advance(us: 2_000_000))
    h.expectSystem(["terminated background_task_expired \(fetch ? "0x2182bad4" : "0x2182bad2"): \(handler) did not call its completion handler within 30.00 seconds"])
    #expect(h.allEvents.last?.t == backgroundAt + 30_000_000)
  }
}

@Suite struct LaunchWatchdogAfterBackgroundLaunchTests {
  /// A scene app launched for a silent push (completion called, suspended), then opened.
  private func launchedForPush(_ app: ScriptedApp, ios: Int) throws -> Harness {
    app.handlers["didReceiveRemoteNotification"] = { sim in try sim.complete(1) }
    let h = Harness(ios: ios, scenes: true, app: app)
    try h.perform(.backgroundLaunch(.push))
    h.expectCalls([AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)",
                   AD + pushHandler])
    h.expectNotifications(["UIApplication.didFinishLaunchingNotification"])
    h.expectSystem(["started background, background", "suspended"])
    return h
  }

  @Test("W2 the first connection after a background launch is a launch: 20 s watchdog in willConnectTo (S26, S1)",
        arguments: [13, 17, 26])
  func watchdogKills(ios: Int) throws {
    let app = ScriptedApp()
    app.handlers["willConnectTo"] = { sim in try sim.work(us: 60_000_000) }
    let h = try launchedForPush(app, ios: ios)
    let openedAt = h.sim.clock
    try h.perform(.launch(url: nil))
    h.expectCalls([AD + "application(_:configurationForConnecting:options:)", NL + "init(coder:)",
                   SD + "scene(_:willConnectTo:options:)"])
    h.expectNotifications([])
    h.expectSystem(["resumed", "terminated watchdog 0x8badf00d: scene-create watchdog transgression: exhausted real (wall clock) time allowance of 20.00 seconds"])
    #expect(h.allEvents.last?.t == openedAt + 20_000_000)
  }

  @Test("W2 under the launch watchdog 15 s in willConnectTo is allowed; afterwards the 10 s hang rule applies (S26)",
        arguments: [13, 17, 26])
  func hangRuleAfterwards(ios: Int) throws {
    let app = ScriptedApp()
    app.handlers["willConnectTo"] = { sim in try sim.work(us: 15_000_000) }
    app.handlers["applicationDidReceiveMemoryWarning"] = { sim in try sim.work(us: 11_000_000) }
    let h = try launchedForPush(app, ios: ios)
    try h.perform(.launch(url: nil))
    h.expectCalls(Array(StandardLaunch.sceneCalls(ios: ios).dropFirst(2)))
    h.expectNotifications(Array(StandardLaunch.sceneNotifications.dropFirst()))
    h.expectSystem(["resumed"])
    try h.perform(.memoryWarning)
    h.expectCalls([AD + "applicationDidReceiveMemoryWarning(_:)"])
    h.expectSystem(["terminated watchdog 0x8badf00d: scene-update watchdog transgression: applicationDidReceiveMemoryWarning(_:) blocked the main thread; exhausted real (wall clock) time allowance of 10.00 seconds"])
  }

  @Test("W2/W3 sceneless: the window was built in the background, so the tap is no launch; didBecomeActive is under the 10 s hang rule (S26, S3)",
        arguments: [12, 17, 26])
  func scenelessHangRule(ios: Int) throws {
    let app = ScriptedApp()
    app.handlers["didReceiveRemoteNotification"] = { sim in try sim.complete(1) }
    app.handlers["applicationDidBecomeActive"] = { sim in try sim.work(us: 11_000_000) }
    let h = Harness(ios: ios, scenes: false, app: app)
    try h.perform(.backgroundLaunch(.push))
    h.expectCalls(scenelessBackgroundLaunch(ios: ios, event: pushHandler))
    h.expectNotifications(["UIApplication.didFinishLaunchingNotification", "UIApplication.didEnterBackgroundNotification"])
    h.expectSystem(backgroundLaunchSystem(ios: ios, scenes: false) + ["suspended"])
    try h.perform(.launch(url: nil))
    h.expectCalls([AD + "applicationWillEnterForeground(_:)", AD + "applicationDidBecomeActive(_:)"])
    h.expectNotifications(["UIApplication.willEnterForegroundNotification"])
    h.expectSystem(["resumed", "terminated watchdog 0x8badf00d: scene-update watchdog transgression: applicationDidBecomeActive(_:) blocked the main thread; exhausted real (wall clock) time allowance of 10.00 seconds"])
  }
}

@Suite struct ScenelessBackgroundWindowTests {
  @Test("W3 a sceneless background launch builds the window; the tap gives only willEnterForeground → didBecomeActive (S3, T8, T-hm)",
        arguments: [12, 13, 17, 26])
  func windowBuiltInBackground(ios: Int) throws {
    let app = ScriptedApp()
    app.handlers["performFetchWithCompletionHandler"] = { sim in try sim.complete(1) }
    let h = Harness(ios: ios, scenes: false, app: app)
    try h.perform(.backgroundLaunch(.fetch))
    h.expectCalls(scenelessBackgroundLaunch(ios: ios, event: fetchHandler))
    h.expectNotifications(["UIApplication.didFinishLaunchingNotification", "UIApplication.didEnterBackgroundNotification"])
    h.expectSystem(backgroundLaunchSystem(ios: ios, scenes: false) + (ios >= 13 ? [BG.fetchDeprecatedNote] : []) + ["suspended"])
    #expect(h.sim.state.applicationState == .background && h.sim.state.controller("NoteList#1")?.appearance == .appeared)
    try h.perform(.launch(url: nil))
    h.expectCalls([AD + "applicationWillEnterForeground(_:)", AD + "applicationDidBecomeActive(_:)"])
    h.expectNotifications(Posted.back(scenes: false))
    h.expectSystem(["resumed"])
    #expect(appearances(h) == ["NoteList#1.viewWillAppear(_:) false"] + (ios >= 13 ? ["NoteList#1.viewIsAppearing(_:) false"] : [])
      + ["NoteList#1.viewDidAppear(_:) false"])
  }
}

/// Every appearance callback so far with the `animated` it received.
private func appearances(_ h: Harness) -> [String] {
  h.allEvents.compactMap { e in
    guard case let .callbackDelivered(cb, target, _, _, arguments) = e.body else { return nil }
    switch cb {
    case .viewWillAppear, .viewIsAppearing, .viewDidAppear, .viewWillDisappear, .viewDidDisappear:
      return "\(target).\(cb.signature) \(arguments.animated.map(String.init) ?? "nil")"
    default:
      return nil
    }
  }
}

@Suite struct AnimatedArgumentTests {
  @Test("W4 animated: false at launch and for a tab switch, true for push, pop, present and dismiss (S23, S21, T-pt)",
        arguments: PlatformUnderTest.all)
  func animatedFlags(_ p: PlatformUnderTest) throws {
    let app = ScriptedApp(layout: AppLayout(name: "Shop", roots: ["Feed", "Cart"], container: .tabs, tabsHaveNavigation: true))
    let h = try p.launched(app: app)
    let vis = p.ios >= 13
    func appear(_ vc: String, _ animated: Bool) -> [String] {
      ["\(vc)viewWillAppear(_:) \(animated)"] + (vis ? ["\(vc)viewIsAppearing(_:) \(animated)"] : [])
    }
    #expect(appearances(h) == appear("Feed#1.", false) + ["Feed#1.viewDidAppear(_:) false"])
    try h.perform(.push("Detail"))
    h.expectCalls(Seen.pushed("Detail#1.", over: "Feed#1.", ios: p.ios))
    try h.perform(.pop)
    h.expectCalls(["Detail#1.viewWillDisappear(_:)"] + Seen.appearing("Feed#1.", ios: p.ios)
                  + ["Detail#1.viewDidDisappear(_:)", "Feed#1.viewDidAppear(_:)"])
    try h.perform(.selectTab(2))
    h.expectCalls(Seen.tabSelected("Cart#1.", from: "Feed#1.", firstTime: true, ios: p.ios))
    try h.perform(.present("Sheet", style: .fullScreen, navigation: false))
    h.expectCalls(Seen.presentedFullScreen("Sheet#1.", over: "Cart#1.", ios: p.ios))
    try h.perform(.dismiss)
    h.expectCalls(["Sheet#1.viewWillDisappear(_:)", "Cart#1.viewWillAppear(_:)"] + (vis ? ["Cart#1.viewIsAppearing(_:)"] : [])
                  + ["Cart#1.viewDidAppear(_:)", "Sheet#1.viewDidDisappear(_:)"])
    #expect(Array(appearances(h).dropFirst(vis ? 3 : 2)) ==
      ["Feed#1.viewWillDisappear(_:) true"] + appear("Detail#1.", true)
      + ["Feed#1.viewDidDisappear(_:) true", "Detail#1.viewDidAppear(_:) true",
         "Detail#1.viewWillDisappear(_:) true"] + appear("Feed#1.", true)
      + ["Detail#1.viewDidDisappear(_:) true", "Feed#1.viewDidAppear(_:) true"]
      + appear("Cart#1.", false) + ["Feed#1.viewWillDisappear(_:) false", "Feed#1.viewDidDisappear(_:) false",
                                    "Cart#1.viewDidAppear(_:) false", "Cart#1.viewWillDisappear(_:) true"]
      + appear("Sheet#1.", true) + ["Sheet#1.viewDidAppear(_:) true", "Cart#1.viewDidDisappear(_:) true",
                                    "Sheet#1.viewWillDisappear(_:) true"]
      + appear("Cart#1.", true) + ["Cart#1.viewDidAppear(_:) true", "Sheet#1.viewDidDisappear(_:) true"])
  }
}

@Suite struct ForceQuitDiscardsSessionTests {
  @Test("W5 a force quit discards the session even when applicationWillTerminate overruns 5 s (S19, S10, T27)",
        arguments: [13, 17, 26])
  func slowWillTerminate(ios: Int) throws {
    let app = ScriptedApp()
    app.handlers["applicationWillTerminate"] = { sim in try sim.work(us: 8_000_000) }
    let h = Harness(ios: ios, scenes: true, app: app)
    try h.launch()
    try h.perform(.appSwitcher)
    h.expectCalls([SD + "sceneWillResignActive(_:)"])
    let quitAt = h.sim.clock
    try h.perform(.forceQuit)
    h.expectCalls([SD + "sceneDidDisconnect(_:)", AD + "applicationWillTerminate(_:)"])
    h.expectNotifications(Posted.resignActive(scenes: true) + ["UIScene.didDisconnectNotification"])
    h.expectSystem(["terminated user: applicationWillTerminate(_:) did not return within 5.00 seconds; the process was ended"])
    #expect(h.sim.clock == quitAt + 5_000_000 && h.sim.state.sessions.isEmpty)
    try h.perform(.launch(url: nil))
    h.expectStandardLaunch(instance: 2, newSession: true, discarded: true)
  }
}
