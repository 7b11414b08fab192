import Testing
@testable import Lifecycle

// Exact appearance, presentation, rotation, memory-warning, URL and prewarm sequences of
// docs/model.md ("§n" is its section, source keys its Sources list's); the launch, background,
// interruption and termination sequences are in ConformanceTests.swift. The harness is
// exhaustive and checks replay after every test (see Harness).

private let AD = "AppDelegate.", SD = "SceneDelegate.", NL = "NoteList#1."

private let snapshot = [NL + "traitCollectionDidChange(_:)", NL + "traitCollectionDidChange(_:)"]

@Suite struct NavigationTests {
  private func launched(ios: Int = 17, app: ScriptedApp = ScriptedApp(),
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> Harness {
    let h = Harness(ios: ios, app: app, sourceLocation: sourceLocation)
    try h.launch(sourceLocation: sourceLocation)
    return h
  }

  private let pushDetail = ["Detail#1.init(coder:)", "Detail#1.loadView()", "Detail#1.viewDidLoad()", NL + "viewWillDisappear(_:)",
    "Detail#1.viewWillAppear(_:)", "Detail#1.viewIsAppearing(_:)", "Detail#1.viewWillLayoutSubviews()",
    "Detail#1.viewDidLayoutSubviews()", NL + "viewDidDisappear(_:)", "Detail#1.viewDidAppear(_:)"]

  @Test("§8 push then pop (T19, T20, T13)")
  func pushPop() throws {
    let h = try launched()
    try h.perform(.push("Detail"))
    h.expectCalls(pushDetail)
    try h.perform(.pop)
    h.expectCalls(["Detail#1.viewWillDisappear(_:)", NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)",
      NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()", "Detail#1.viewDidDisappear(_:)", NL + "viewDidAppear(_:)"])
    try h.perform(.push("Detail"))
    // a popped controller is gone: a new instance, loaded afresh
    h.expectCalls(pushDetail.map { $0.replacingOccurrences(of: "Detail#1", with: "Detail#2") })
  }

  @Test("§8 interactive swipe-back cancelled (T13, T12)")
  func swipeBackCancelled() throws {
    let h = try launched()
    try h.perform(.push("Detail"))
    h.expectCalls(pushDetail)
    try h.perform(.swipeBack(cancel: true))
    h.expectCalls(["Detail#1.viewWillDisappear(_:)", NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)",
      NL + "viewWillDisappear(_:)", NL + "viewDidDisappear(_:)", "Detail#1.viewWillAppear(_:)", "Detail#1.viewIsAppearing(_:)",
      "Detail#1.viewDidAppear(_:)"])
    #expect(h.sim.state.controller("Detail#1")?.appearance == .appeared)
    #expect(h.sim.state.controller("NoteList#1")?.appearance == .disappeared)
  }

  @Test("§9 fullScreen present and dismiss: the presenter's did comes after (T14, T15)")
  func fullScreen() throws {
    let h = try launched()
    try h.perform(.present("Sheet", style: .fullScreen, navigation: false))
    h.expectCalls(["Sheet#1.init(coder:)", "Sheet#1.loadView()", "Sheet#1.viewDidLoad()", NL + "viewWillDisappear(_:)",
      "Sheet#1.viewWillAppear(_:)", "Sheet#1.viewIsAppearing(_:)", "Sheet#1.viewWillLayoutSubviews()",
      "Sheet#1.viewDidLayoutSubviews()", "Sheet#1.viewDidAppear(_:)", NL + "viewDidDisappear(_:)"])
    try h.perform(.dismiss)
    h.expectCalls(["Sheet#1.viewWillDisappear(_:)", NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)",
      NL + "viewDidAppear(_:)", "Sheet#1.viewDidDisappear(_:)"])
  }

  @Test("§9 pageSheet (the iOS 13+ default): the presenter gets nothing (T14, T16, T17)")
  func pageSheet() throws {
    let h = try launched()
    try h.perform(.present("Sheet", style: nil, navigation: false))
    h.expectCalls(["Sheet#1.init(coder:)", "Sheet#1.loadView()", "Sheet#1.viewDidLoad()", "Sheet#1.viewWillAppear(_:)",
      "Sheet#1.viewIsAppearing(_:)", "Sheet#1.viewWillLayoutSubviews()", "Sheet#1.viewDidLayoutSubviews()", "Sheet#1.viewDidAppear(_:)"])
    try h.perform(.swipeDown(cancel: true))
    h.expectCalls(["Sheet#1.viewWillDisappear(_:)", "Sheet#1.viewWillAppear(_:)", "Sheet#1.viewIsAppearing(_:)",
      "Sheet#1.viewDidAppear(_:)"])
    try h.perform(.swipeDown(cancel: false))
    h.expectCalls(["Sheet#1.viewWillDisappear(_:)", "Sheet#1.viewDidDisappear(_:)"])
  }

  @Test("§9 iOS 12 present without a style is fullScreen (S34)")
  func ios12DefaultStyle() throws {
    let h = try launched(ios: 12)
    try h.perform(.present("Sheet", style: nil, navigation: false))
    h.expectCalls(["Sheet#1.init(coder:)", "Sheet#1.loadView()", "Sheet#1.viewDidLoad()", NL + "viewWillDisappear(_:)",
      "Sheet#1.viewWillAppear(_:)", "Sheet#1.viewWillLayoutSubviews()", "Sheet#1.viewDidLayoutSubviews()",
      "Sheet#1.viewDidAppear(_:)", NL + "viewDidDisappear(_:)"])
  }

  @Test("§8 tab switch: the new tab's will comes first (T18)")
  func tabs() throws {
    let app = ScriptedApp(layout: AppLayout(name: "Shop", roots: ["Feed", "Cart"], container: .tabs))
    let h = Harness(ios: 17, app: app)
    try h.perform(.launch(url: nil))
    h.expectCalls([AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)",
      AD + "application(_:configurationForConnecting:options:)", "Feed#1.init(coder:)", "Cart#1.init(coder:)",
      SD + "scene(_:willConnectTo:options:)", "Feed#1.loadView()", "Feed#1.viewDidLoad()", "Feed#1.viewWillAppear(_:)",
      "Feed#1.viewIsAppearing(_:)", "Feed#1.viewWillLayoutSubviews()", "Feed#1.viewDidLayoutSubviews()",
      SD + "sceneWillEnterForeground(_:)", SD + "sceneDidBecomeActive(_:)", "Feed#1.viewDidAppear(_:)"])
    h.expectNotifications(StandardLaunch.sceneNotifications)
    h.expectSystem(["started foreground, background"])
    try h.perform(.selectTab(2))
    h.expectCalls(["Cart#1.loadView()", "Cart#1.viewDidLoad()", "Cart#1.viewWillAppear(_:)", "Cart#1.viewIsAppearing(_:)",
      "Cart#1.viewWillLayoutSubviews()", "Cart#1.viewDidLayoutSubviews()", "Feed#1.viewWillDisappear(_:)",
      "Feed#1.viewDidDisappear(_:)", "Cart#1.viewDidAppear(_:)"])
    try h.perform(.selectTab(1))
    // loaded once: no loadView or viewDidLoad the second time
    h.expectCalls(["Feed#1.viewWillAppear(_:)", "Feed#1.viewIsAppearing(_:)", "Feed#1.viewWillLayoutSubviews()",
      "Feed#1.viewDidLayoutSubviews()", "Cart#1.viewWillDisappear(_:)", "Cart#1.viewDidDisappear(_:)", "Feed#1.viewDidAppear(_:)"])
  }

  @Test("§10 rotation: traits, size, trait change, layout (T-sd, S21)")
  func rotation() throws {
    let h = try launched()
    try h.perform(.rotate(.landscape))
    h.expectCalls([NL + "willTransition(to:with:)", NL + "viewWillTransition(to:with:)",
      NL + "traitCollectionDidChange(_:)", NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()"])
  }

  @Test("§11 memory warning: app delegate, every loaded controller, hidden ones too (S24, T19)")
  func memoryWarning() throws {
    let h = try launched()
    try h.perform(.push("Detail"))
    h.expectCalls(pushDetail)
    try h.perform(.memoryWarning)
    h.expectCalls([AD + "applicationDidReceiveMemoryWarning(_:)", NL + "didReceiveMemoryWarning()",
                   "Detail#1.didReceiveMemoryWarning()"])
    h.expectNotifications(["UIApplication.didReceiveMemoryWarningNotification"])
  }

  @Test("§8 a push from viewDidAppear nests at depth 1 (UIKit order)")
  func nestedPush() throws {
    let app = ScriptedApp()
    app.handlers["NoteList.viewDidAppear"] = { sim in
      if sim.state.controller("Detail#1") == nil { try? sim.appPush("Detail") }
    }
    let h = Harness(ios: 17, app: app)
    try h.perform(.launch(url: nil))
    h.expectCalls(StandardLaunch.sceneCalls(ios: 17) + pushDetail)  // the push runs inside NoteList#1.viewDidAppear
    h.expectNotifications(StandardLaunch.sceneNotifications)
    h.expectSystem(["started foreground, background"])
    let nested = h.allEvents.compactMap { e -> Int? in
      if case let .callbackDelivered(.viewDidLoad, "Detail#1", _, depth, _) = e.body { return depth }; return nil
    }
    #expect(nested == [1])
  }
}

@Suite struct URLAndPrewarmTests {
  @Test("§2 cold deep link, sceneless: open before didBecomeActive (T7)")
  func coldURLSceneless() throws {
    let h = Harness(ios: 12)
    try h.perform(.openURL("notes://1"))
    var calls = StandardLaunch.scenelessCalls(ios: 12)
    calls.insert(AD + "application(_:open:options:)", at: calls.count - 2)
    h.expectCalls(calls)
    h.expectNotifications(StandardLaunch.scenelessNotifications)
    h.expectSystem(["started foreground, inactive"])
  }

  @Test("§2 scene apps: cold URL arrives in willConnectTo, warm in openURLContexts (S36, T34)")
  func urlScene() throws {
    let h = Harness(ios: 17)
    try h.perform(.openURL("notes://1"))
    h.expectStandardLaunch()
    #expect(h.allEvents.contains { if case let .callbackDelivered(.willConnectTo, _, _, _, arguments) = $0.body, arguments.url == "notes://1" { return true }; return false })
    try h.perform(.home, .openURL("notes://2"))
    h.expectCalls([SD + "sceneWillResignActive(_:)", SD + "stateRestorationActivity(for:)", SD + "sceneDidEnterBackground(_:)"] + snapshot
                  + [SD + "sceneWillEnterForeground(_:)", SD + "scene(_:openURLContexts:)", SD + "sceneDidBecomeActive(_:)"])
    h.expectNotifications(Posted.home(scenes: true) + Posted.back(scenes: true))
    h.expectSystem(["suspended", "resumed"])
  }

  @Test("§2 prewarm runs no app code by default; the tap runs the whole launch (S2, F4)")
  func prewarm() throws {
    let h = Harness(ios: 17)
    try h.perform(.prewarm)
    h.expectCalls([])
    h.expectSystem(["started prewarm, background"])
    #expect(h.sim.state.appState == .suspended)
    try h.perform(.launch(url: nil))
    h.expectCalls(StandardLaunch.sceneCalls(ios: 17))
    h.expectNotifications(StandardLaunch.sceneNotifications)
    h.expectSystem(["continued background"])
    let h12 = Harness(ios: 12)
    #expect(throws: ScenarioError.self) { try h12.sim.perform(.prewarm) }
  }
}
