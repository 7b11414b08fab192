import Testing
@testable import Lifecycle

// The second audit's corrections to rotation while hidden and to layout after a rotation, and
// the overFullScreen style (memory warnings and the Notification Center are in
// FidelityPartTwoTests.swift). Each test names its sources and pins the whole sequence in
// every profile it applies to; the harness is exhaustive and checks replay after every test.

private let NL = "NoteList#1."

@Suite struct RotationWhileHiddenTests {
  @Test("§10 W8 push, rotate, pop: the returning controller gets its new traits after viewWillAppear, before viewIsAppearing (UIContentContainer willTransition(to:with:); viewIsAppearing docs; T24)",
        arguments: PlatformUnderTest.all)
  func pushRotatePop(_ p: PlatformUnderTest) throws {
    let h = try p.launched()
    try h.perform(.push("Detail"))
    h.expectCalls(Seen.pushed("Detail#1.", over: NL, ios: p.ios))
    try h.perform(.rotate(.landscape))
    h.expectCalls(Seen.rotation(["Detail#1."]))
    try h.perform(.pop)
    h.expectCalls(["Detail#1.viewWillDisappear(_:)"] + Seen.returnsRotated(NL, ios: p.ios)
                  + ["Detail#1.viewDidDisappear(_:)", NL + "viewDidAppear(_:)"])
    try h.perform(.push("Detail"))
    h.expectCalls(Seen.pushed("Detail#2.", over: NL, ios: p.ios))
    try h.perform(.pop)
    // told once: a plain pop the second time
    h.expectCalls(["Detail#2.viewWillDisappear(_:)"] + Seen.appearing(NL, ios: p.ios)
                  + ["Detail#2.viewDidDisappear(_:)", NL + "viewDidAppear(_:)"])
  }

  @Test("§10 W8 a tab hidden during a rotation, selected again (UIContentContainer; viewIsAppearing docs; T18, T24)", arguments: PlatformUnderTest.all)
  func tabBack(_ p: PlatformUnderTest) throws {
    let app = ScriptedApp(layout: AppLayout(name: "Shop", roots: ["Feed", "Cart"], container: .tabs))
    let h = try p.launched(app: app)
    try h.perform(.selectTab(2))
    h.expectCalls(Seen.tabSelected("Cart#1.", from: "Feed#1.", firstTime: true, ios: p.ios))
    try h.perform(.rotate(.landscape))
    h.expectCalls(Seen.rotation(["Cart#1."]))
    try h.perform(.selectTab(1))
    h.expectCalls(Seen.returnsRotated("Feed#1.", ios: p.ios)
                  + ["Cart#1.viewWillDisappear(_:)", "Cart#1.viewDidDisappear(_:)", "Feed#1.viewDidAppear(_:)"])
  }

  @Test("§10 W8 a view loaded after the rotation starts with the new traits: no transition (viewIsAppearing docs; T23)")
  func loadedAfterRotation() throws {
    let app = ScriptedApp(layout: AppLayout(name: "Shop", roots: ["Feed", "Cart"], container: .tabs))
    let h = try PlatformUnderTest(ios: 17, scenes: true).launched(app: app)
    try h.perform(.rotate(.landscape))
    h.expectCalls(Seen.rotation(["Feed#1."]))
    try h.perform(.selectTab(2))
    h.expectCalls(["Cart#1.loadView()", "Cart#1.viewDidLoad()", "Cart#1.viewWillAppear(_:)", "Cart#1.viewIsAppearing(_:)",
      "Cart#1.viewWillLayoutSubviews()", "Cart#1.viewDidLayoutSubviews()", "Feed#1.viewWillDisappear(_:)",
      "Feed#1.viewDidDisappear(_:)", "Cart#1.viewDidAppear(_:)"])
  }

  @Test("§10 W8/W9 a cancelled swipe back after a rotation: the revealed controller gets its traits and its new size (T13, UIContentContainer, viewWillLayoutSubviews docs)",
        arguments: PlatformUnderTest.all)
  func cancelledSwipeBack(_ p: PlatformUnderTest) throws {
    let h = try p.launched()
    try h.perform(.push("Detail"), .rotate(.landscape))
    h.expectCalls(Seen.pushed("Detail#1.", over: NL, ios: p.ios) + Seen.rotation(["Detail#1."]))
    try h.perform(.swipeBack(cancel: true))
    var detailBack = ["Detail#1.viewWillAppear(_:)"]
    if p.ios >= 13 { detailBack.append("Detail#1.viewIsAppearing(_:)") }
    h.expectCalls(["Detail#1.viewWillDisappear(_:)"] + Seen.returnsRotated(NL, ios: p.ios)
                  + [NL + "viewWillDisappear(_:)", NL + "viewDidDisappear(_:)"] + detailBack + ["Detail#1.viewDidAppear(_:)"])
  }
}

@Suite struct LayoutAfterRotationTests {
  @Test("§10 W9 full screen, rotate, dismiss: the presenter comes back at its new size and is laid out (viewWillLayoutSubviews docs: \"When the bounds change…\"; viewIsAppearing docs; T14, T15)",
        arguments: PlatformUnderTest.all)
  func presenterLaidOut(_ p: PlatformUnderTest) throws {
    let h = try p.launched()
    try h.perform(.present("Sheet", style: .fullScreen, navigation: false))
    h.expectCalls(Seen.presentedFullScreen("Sheet#1.", over: NL, ios: p.ios))
    try h.perform(.rotate(.landscape))
    h.expectCalls(Seen.rotation(["Sheet#1."]))
    try h.perform(.dismiss)
    h.expectCalls(["Sheet#1.viewWillDisappear(_:)"] + Seen.returnsRotated(NL, ios: p.ios)
                  + [NL + "viewDidAppear(_:)", "Sheet#1.viewDidDisappear(_:)"])
  }

  @Test("§10 W9 full screen and dismiss at the same size: still no layout pass for the presenter (T14, T15)", arguments: PlatformUnderTest.all)
  func sameSizeNoLayout(_ p: PlatformUnderTest) throws {
    let h = try p.launched()
    try h.perform(.present("Sheet", style: .fullScreen, navigation: false))
    h.expectCalls(Seen.presentedFullScreen("Sheet#1.", over: NL, ios: p.ios))
    try h.perform(.dismiss)
    var back = ["Sheet#1.viewWillDisappear(_:)", NL + "viewWillAppear(_:)"]
    if p.ios >= 13 { back.append(NL + "viewIsAppearing(_:)") }
    h.expectCalls(back + [NL + "viewDidAppear(_:)", "Sheet#1.viewDidDisappear(_:)"])
  }
}

@Suite struct OverFullScreenTests {
  /// Sheet#1 presented over NoteList#1, which gets nothing: only the modal appears.
  private func overFullScreen(ios: Int) -> [String] {
    ["Sheet#1.init(coder:)", "Sheet#1.loadView()", "Sheet#1.viewDidLoad()"] + Seen.appearing("Sheet#1.", ios: ios)
      + ["Sheet#1.viewDidAppear(_:)"]
  }

  @Test("§9 overFullScreen: the presenter's view stays, so it gets no appearance callbacks, as for sheets (S34)", arguments: PlatformUnderTest.all)
  func presentAndDismiss(_ p: PlatformUnderTest) throws {
    let h = try p.launched()
    try h.perform(.present("Sheet", style: .overFullScreen, navigation: false))
    h.expectCalls(overFullScreen(ios: p.ios))
    #expect(h.allEvents.contains { $0.body == .presented("Sheet#1", style: .overFullScreen, navigation: false) })
    // The presenter stays in the window: it rotates with the modal.
    try h.perform(.rotate(.landscape))
    h.expectCalls(Seen.rotation([NL, "Sheet#1."]))
    #expect(throws: ScenarioError("swipe_down(): no sheet is presented (state: active)")) { try h.sim.perform(.swipeDown(cancel: false)) }
    try h.perform(.dismiss)
    h.expectCalls(["Sheet#1.viewWillDisappear(_:)", "Sheet#1.viewDidDisappear(_:)"])
  }

  @Test("§9 overFullScreen from app code (present{style = \"overFullScreen\"}), and as the default style knob (S34)")
  func fromAppCode() throws {
    let app = ScriptedApp()
    app.handlers["NoteList.viewDidAppear"] = { sim in
      if sim.state.controller("Sheet#1") == nil { try? sim.appPresent("Sheet", style: .overFullScreen, navigation: false) }
    }
    let h = Harness(ios: 17, app: app)
    try h.perform(.launch(url: nil))
    #expect(h.allEvents.contains { $0.body == .appCalled(.present("Sheet", style: .overFullScreen, navigation: false), at: nil) })
    // Inside NoteList#1.viewDidAppear; NoteList#1 gets no viewWillDisappear.
    h.expectCalls(StandardLaunch.sceneCalls(ios: 17) + overFullScreen(ios: 17))
    h.expectNotifications(StandardLaunch.sceneNotifications)
    h.expectSystem(["started foreground, background"])
    var profile = Profile(ios: 17)
    try profile.set("defaultPresentationStyle", .string("overFullScreen"))
    #expect(profile.defaultPresentationStyle == .overFullScreen)
  }
}
