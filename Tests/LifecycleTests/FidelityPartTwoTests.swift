import EventStore
import Foundation
import Testing
@testable import Lifecycle

// The second audit's four corrections (memory warnings, a full Notification Center pull,
// rotation while hidden, layout after a rotation) and the overFullScreen style. Each test
// names its sources, pins the whole sequence in every profile it applies to, and checks that
// replaying the events through the log's JSON form rebuilds the live state.

private let AD = "AppDelegate.", SD = "SceneDelegate.", NL = "NoteList#1."

/// A platform profile the tests run in: the iOS version and whether the app uses scenes.
struct PlatformUnderTest: Sendable, CustomTestStringConvertible {
  var ios: Int
  var scenes: Bool
  var testDescription: String { "iOS \(ios) \(scenes ? "scenes" : "sceneless")" }

  /// Every range where the sequences differ: iOS 12 (no viewIsAppearing), 13 and 17
  /// (viewIsAppearing), 26 (updateProperties), scene and sceneless.
  static let all = [PlatformUnderTest(ios: 12, scenes: false), PlatformUnderTest(ios: 13, scenes: true), PlatformUnderTest(ios: 17, scenes: false),
                    PlatformUnderTest(ios: 17, scenes: true), PlatformUnderTest(ios: 26, scenes: false), PlatformUnderTest(ios: 26, scenes: true)]
}

private func launched(_ p: PlatformUnderTest, app: ScriptedApp = ScriptedApp(), knobs: (inout Profile) -> Void = { _ in }) throws -> Harness {
  let h = Harness(ios: p.ios, scenes: p.scenes, app: app, knobs: knobs)
  try h.perform(.launch(url: nil))
  _ = h.takeCalls(); _ = h.takeEvents()
  return h
}

private func notifications(_ events: [EventBody]) -> [String] {
  events.compactMap { if case let .notification(n, _, _) = $0 { return n }; return nil }
}

/// What a controller coming back after missing a rotation gets, from viewWillAppear on, until
/// its layout pass: new traits, then viewIsAppearing (iOS ≥ 13), updateProperties (iOS ≥ 26), layout.
private func returnsRotated(_ vc: String, ios: Int) -> [String] {
  var s = [vc + "willTransition(to:with:)", vc + "viewWillAppear(_:)", vc + "traitCollectionDidChange(_:)"]
  if ios >= 13 { s.append(vc + "viewIsAppearing(_:)") }
  if ios >= 26 { s.append(vc + "updateProperties()") }
  return s + [vc + "viewWillLayoutSubviews()", vc + "viewDidLayoutSubviews()"]
}

/// The rotation a visible controller gets (willTransition, size, traits, layout).
private func rotation(_ vcs: [String]) -> [String] {
  vcs.map { $0 + "willTransition(to:with:)" } + vcs.map { $0 + "viewWillTransition(to:with:)" }
    + vcs.map { $0 + "traitCollectionDidChange(_:)" }
    + vcs.flatMap { [$0 + "viewWillLayoutSubviews()", $0 + "viewDidLayoutSubviews()"] }
}

@Suite struct MemoryWarningEveryInstanceTests {
  /// A tab bar app whose tabs are navigation controllers: Feed and Cart exist from launch.
  private func shop() -> ScriptedApp {
    ScriptedApp(layout: AppLayout(name: "Shop", roots: ["Feed", "Cart"], container: .tabs, tabsHaveNavigation: true))
  }

  @Test("W6 memory warning: every controller instance, loaded or not, no view loaded (View Controller Programming Guide: \"Each view controller calls its didReceiveMemoryWarning method\"; S24, T19)",
        arguments: PlatformUnderTest.all)
  func everyInstance(_ p: PlatformUnderTest) throws {
    let app = shop()
    app.handlers["Cart.didReceiveMemoryWarning"] = { _ in }
    let h = try launched(p, app: app)
    try h.perform(.push("Detail")); _ = h.takeCalls(); _ = h.takeEvents()
    #expect(h.sim.state.controller("Cart#1")?.viewLoaded == false)
    try h.perform(.memoryWarning)
    let events = h.takeEvents()
    #expect(h.takeCalls() == [AD + "applicationDidReceiveMemoryWarning(_:)", "Feed#1.didReceiveMemoryWarning()",
                              "Detail#1.didReceiveMemoryWarning()", "Cart#1.didReceiveMemoryWarning()"])
    #expect(notifications(events) == ["UIApplication.didReceiveMemoryWarningNotification"])
    // The unloaded tab root ran its handler and still has no view.
    #expect(events.contains(.callback(.didReceiveMemoryWarning, target: "Cart#1", handled: true, depth: 0, url: nil, completion: nil)))
    #expect(h.sim.state.controller("Cart#1")?.viewLoaded == false)
    try h.perform(.selectTab(2))
    #expect(h.takeCalls().prefix(2) == ["Cart#1.loadView()", "Cart#1.viewDidLoad()"])
    #expect(try h.replayMatches())
  }

  @Test("W6 a controller popped by an earlier memory-warning handler is gone and gets none (S24)")
  func poppedDuringWarning() throws {
    let app = ScriptedApp()
    app.handlers["NoteList.didReceiveMemoryWarning"] = { sim in try? sim.appPop() }
    let h = try launched(PlatformUnderTest(ios: 17, scenes: true), app: app)
    try h.perform(.push("Detail")); _ = h.takeCalls()
    try h.perform(.memoryWarning)
    var popped = ["Detail#1.viewWillDisappear(_:)", NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)"]
    popped += [NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()", "Detail#1.viewDidDisappear(_:)", NL + "viewDidAppear(_:)"]
    #expect(h.takeCalls() == [AD + "applicationDidReceiveMemoryWarning(_:)", NL + "didReceiveMemoryWarning()"] + popped)
    #expect(try h.replayMatches())
  }

  @Test("W6 memory warning with a full-screen modal over tabs: tabs in order, then the presented one (S24, T19)")
  func withModal() throws {
    let h = try launched(PlatformUnderTest(ios: 17, scenes: true), app: shop())
    try h.perform(.present("Sheet", style: .fullScreen, navigation: false)); _ = h.takeCalls()
    try h.perform(.memoryWarning)
    #expect(h.takeCalls() == [AD + "applicationDidReceiveMemoryWarning(_:)", "Feed#1.didReceiveMemoryWarning()",
                              "Cart#1.didReceiveMemoryWarning()", "Sheet#1.didReceiveMemoryWarning()"])
    #expect(try h.replayMatches())
  }
}

@Suite struct NotificationCenterPullTests {
  private func pull(_ p: PlatformUnderTest) -> (calls: [String], notes: [String]) {
    p.scenes
      ? ([SD + "sceneWillResignActive(_:)", SD + "sceneDidBecomeActive(_:)", SD + "sceneWillResignActive(_:)"],
         ["UIScene.willDeactivateNotification", "UIApplication.willResignActiveNotification",
          "UIScene.didActivateNotification", "UIApplication.didBecomeActiveNotification",
          "UIScene.willDeactivateNotification", "UIApplication.willResignActiveNotification"])
      : ([AD + "applicationWillResignActive(_:)", AD + "applicationDidBecomeActive(_:)", AD + "applicationWillResignActive(_:)"],
         ["UIApplication.willResignActiveNotification", "UIApplication.didBecomeActiveNotification",
          "UIApplication.willResignActiveNotification"])
  }

  private func close(_ p: PlatformUnderTest) -> (calls: [String], notes: [String]) {
    p.scenes
      ? ([SD + "sceneDidBecomeActive(_:)"], ["UIScene.didActivateNotification", "UIApplication.didBecomeActiveNotification"])
      : ([AD + "applicationDidBecomeActive(_:)"], ["UIApplication.didBecomeActiveNotification"])
  }

  @Test("W7 a full Notification Center pull resigns and becomes active twice, iOS ≥ 11 (OpenRadar 49216830; OneSignal-iOS-SDK PR 1451)",
        arguments: PlatformUnderTest.all)
  func twice(_ p: PlatformUnderTest) throws {
    let h = try launched(p)
    try h.perform(.interrupt(.notificationCenter))
    let opened = h.takeEvents()
    #expect(h.takeCalls() == pull(p).calls)
    #expect(notifications(opened) == pull(p).notes)
    #expect(h.sim.state.appState == .inactive)
    try h.perform(.endInterrupt(.dismissed))
    let closed = h.takeEvents()
    #expect(h.takeCalls() == close(p).calls)
    #expect(notifications(closed) == close(p).notes)
    #expect(h.sim.state.appState == .active)
    #expect(try h.replayMatches())
  }

  @Test("W7 knob notificationCenterDoubleActivation = false restores the single pair (iOS 10 behaviour, OpenRadar 49216830)",
        arguments: PlatformUnderTest.all)
  func knobOff(_ p: PlatformUnderTest) throws {
    let h = try launched(p) { try? $0.set("notificationCenterDoubleActivation", .bool(false)) }
    #expect(h.sim.profile.notificationCenterDoubleActivation == false)
    try h.perform(.interrupt(.notificationCenter))
    #expect(h.takeCalls() == [pull(p).calls[0]])
    try h.perform(.endInterrupt(.dismissed))
    #expect(h.takeCalls() == close(p).calls)
    #expect(try h.replayMatches())
  }

  @Test("W7 only the Notification Center: Control Center and alerts keep one pair (T9, S16)", arguments: PlatformUnderTest.all)
  func otherOverlays(_ p: PlatformUnderTest) throws {
    let h = try launched(p)
    for kind in [Interruption.controlCenter, .alert] {
      try h.perform(.interrupt(kind), .endInterrupt(.dismissed))
      #expect(h.takeCalls() == [pull(p).calls[0]] + close(p).calls, "\(kind)")
    }
  }

  @Test("W7 the knob is on in every profile, recorded in the header; a header without it replays the single pair")
  func knobRecorded() throws {
    for ios in Profile.iosRange { #expect(Profile(ios: ios).notificationCenterDoubleActivation, "iOS \(ios)") }
    var off = Profile(ios: 17)
    try off.set("notificationCenterDoubleActivation", .bool(false))
    #expect(off.json["notificationCenterDoubleActivation"] == .bool(false))
    #expect(try Profile(json: off.json) == off)
    #expect(try Profile(json: Profile(ios: 17).json).notificationCenterDoubleActivation)
    // A log written before the knob existed: no key, and that version gave one pair.
    guard case let .object(members) = Profile(ios: 17).json else { Issue.record("profile JSON is not an object"); return }
    let older = JSONValue.object(members.filter { $0.0 != "notificationCenterDoubleActivation" })
    #expect(try Profile(json: older).notificationCenterDoubleActivation == false)
    #expect(throws: Profile.KnobError.self) {
      try Profile(json: .object(members.map { $0.0 == "notificationCenterDoubleActivation" ? ($0.0, .int(1)) : $0 }))
    }
    #expect(throws: Profile.KnobError(description: "knob notificationCenterDoubleActivation takes true or false")) {
      try off.set("notificationCenterDoubleActivation", .number(1))
    }
  }
}

@Suite struct KnobTableTests {
  @Test("every profile knob, notificationCenterDoubleActivation included, has a row in docs/lua-api.md's knob table")
  func documented() throws {
    let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("docs/lua-api.md")
    let text = try String(contentsOf: docs, encoding: .utf8)
    for name in Profile.knobNames { #expect(text.contains("\n| `\(name)` | "), "\(name)") }
  }
}

@Suite struct RotationWhileHiddenTests {
  @Test("W8 push, rotate, pop: the returning controller gets its new traits after viewWillAppear, before viewIsAppearing (UIContentContainer willTransition(to:with:); viewIsAppearing docs; T24)",
        arguments: PlatformUnderTest.all)
  func pushRotatePop(_ p: PlatformUnderTest) throws {
    let h = try launched(p)
    try h.perform(.push("Detail")); _ = h.takeCalls()
    try h.perform(.rotate(.landscape))
    #expect(h.takeCalls() == rotation(["Detail#1."]))
    try h.perform(.pop)
    #expect(h.takeCalls() == ["Detail#1.viewWillDisappear(_:)"] + returnsRotated(NL, ios: p.ios)
            + ["Detail#1.viewDidDisappear(_:)", NL + "viewDidAppear(_:)"])
    try h.perform(.push("Detail")); _ = h.takeCalls()
    try h.perform(.pop)
    var again = ["Detail#2.viewWillDisappear(_:)", NL + "viewWillAppear(_:)"]
    if p.ios >= 13 { again.append(NL + "viewIsAppearing(_:)") }
    if p.ios >= 26 { again.append(NL + "updateProperties()") }
    again += [NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()", "Detail#2.viewDidDisappear(_:)", NL + "viewDidAppear(_:)"]
    #expect(h.takeCalls() == again)  // told once
    #expect(try h.replayMatches())
  }

  @Test("W8 a tab hidden during a rotation, selected again (UIContentContainer; viewIsAppearing docs; T18, T24)", arguments: PlatformUnderTest.all)
  func tabBack(_ p: PlatformUnderTest) throws {
    let app = ScriptedApp(layout: AppLayout(name: "Shop", roots: ["Feed", "Cart"], container: .tabs))
    let h = try launched(p, app: app)
    try h.perform(.selectTab(2), .rotate(.landscape)); _ = h.takeCalls()
    try h.perform(.selectTab(1))
    #expect(h.takeCalls() == returnsRotated("Feed#1.", ios: p.ios)
            + ["Cart#1.viewWillDisappear(_:)", "Cart#1.viewDidDisappear(_:)", "Feed#1.viewDidAppear(_:)"])
    #expect(try h.replayMatches())
  }

  @Test("W8 a view loaded after the rotation starts with the new traits: no transition (viewIsAppearing docs; T23)")
  func loadedAfterRotation() throws {
    let app = ScriptedApp(layout: AppLayout(name: "Shop", roots: ["Feed", "Cart"], container: .tabs))
    let h = try launched(PlatformUnderTest(ios: 17, scenes: true), app: app)
    try h.perform(.rotate(.landscape)); _ = h.takeCalls()
    try h.perform(.selectTab(2))
    #expect(h.takeCalls() == ["Cart#1.loadView()", "Cart#1.viewDidLoad()", "Cart#1.viewWillAppear(_:)", "Cart#1.viewIsAppearing(_:)",
      "Cart#1.viewWillLayoutSubviews()", "Cart#1.viewDidLayoutSubviews()", "Feed#1.viewWillDisappear(_:)",
      "Feed#1.viewDidDisappear(_:)", "Cart#1.viewDidAppear(_:)"])
  }

  @Test("W8/W9 a cancelled swipe back after a rotation: the revealed controller gets its traits and its new size (T13, UIContentContainer, viewWillLayoutSubviews docs)",
        arguments: PlatformUnderTest.all)
  func cancelledSwipeBack(_ p: PlatformUnderTest) throws {
    let h = try launched(p)
    try h.perform(.push("Detail"), .rotate(.landscape)); _ = h.takeCalls()
    try h.perform(.swipeBack(cancel: true))
    var detailBack = ["Detail#1.viewWillAppear(_:)"]
    if p.ios >= 13 { detailBack.append("Detail#1.viewIsAppearing(_:)") }
    #expect(h.takeCalls() == ["Detail#1.viewWillDisappear(_:)"] + returnsRotated(NL, ios: p.ios)
            + [NL + "viewWillDisappear(_:)", NL + "viewDidDisappear(_:)"] + detailBack + ["Detail#1.viewDidAppear(_:)"])
    #expect(try h.replayMatches())
  }
}

@Suite struct LayoutAfterRotationTests {
  @Test("W9 full screen, rotate, dismiss: the presenter comes back at its new size and is laid out (viewWillLayoutSubviews docs: \"When the bounds change…\"; viewIsAppearing docs; T14, T15)",
        arguments: PlatformUnderTest.all)
  func presenterLaidOut(_ p: PlatformUnderTest) throws {
    let h = try launched(p)
    try h.perform(.present("Sheet", style: .fullScreen, navigation: false)); _ = h.takeCalls()
    try h.perform(.rotate(.landscape))
    #expect(h.takeCalls() == rotation(["Sheet#1."]))
    try h.perform(.dismiss)
    #expect(h.takeCalls() == ["Sheet#1.viewWillDisappear(_:)"] + returnsRotated(NL, ios: p.ios)
            + [NL + "viewDidAppear(_:)", "Sheet#1.viewDidDisappear(_:)"])
    #expect(try h.replayMatches())
  }

  @Test("W9 full screen and dismiss at the same size: still no layout pass for the presenter (T14, T15)", arguments: PlatformUnderTest.all)
  func sameSizeNoLayout(_ p: PlatformUnderTest) throws {
    let h = try launched(p)
    try h.perform(.present("Sheet", style: .fullScreen, navigation: false)); _ = h.takeCalls()
    try h.perform(.dismiss)
    var back = ["Sheet#1.viewWillDisappear(_:)", NL + "viewWillAppear(_:)"]
    if p.ios >= 13 { back.append(NL + "viewIsAppearing(_:)") }
    #expect(h.takeCalls() == back + [NL + "viewDidAppear(_:)", "Sheet#1.viewDidDisappear(_:)"])
    #expect(try h.replayMatches())
  }
}

@Suite struct OverFullScreenTests {
  @Test("overFullScreen: the presenter's view stays, so it gets no appearance callbacks, as for sheets (S34)", arguments: PlatformUnderTest.all)
  func presentAndDismiss(_ p: PlatformUnderTest) throws {
    let h = try launched(p)
    try h.perform(.present("Sheet", style: .overFullScreen, navigation: false))
    var shown = ["Sheet#1.init(coder:)", "Sheet#1.loadView()", "Sheet#1.viewDidLoad()", "Sheet#1.viewWillAppear(_:)"]
    if p.ios >= 13 { shown.append("Sheet#1.viewIsAppearing(_:)") }
    if p.ios >= 26 { shown.append("Sheet#1.updateProperties()") }
    shown += ["Sheet#1.viewWillLayoutSubviews()", "Sheet#1.viewDidLayoutSubviews()", "Sheet#1.viewDidAppear(_:)"]
    #expect(h.takeCalls() == shown)
    #expect(h.takeEvents().contains(.presented("Sheet#1", style: .overFullScreen, navigation: false)))
    // The presenter stays in the window: it rotates with the modal.
    try h.perform(.rotate(.landscape))
    #expect(h.takeCalls() == rotation([NL, "Sheet#1."]))
    #expect(throws: ScenarioError("swipe_down(): no sheet is presented (state: active)")) { try h.sim.perform(.swipeDown(cancel: false)) }
    try h.perform(.dismiss)
    #expect(h.takeCalls() == ["Sheet#1.viewWillDisappear(_:)", "Sheet#1.viewDidDisappear(_:)"])
    #expect(try h.replayMatches())
  }

  @Test("overFullScreen from app code (present{style = \"overFullScreen\"}), and as the default style knob (S34)")
  func fromAppCode() throws {
    let app = ScriptedApp()
    app.handlers["NoteList.viewDidAppear"] = { sim in
      if sim.state.controller("Sheet#1") == nil { try? sim.appPresent("Sheet", style: .overFullScreen, navigation: false) }
    }
    let h = Harness(ios: 17, app: app)
    try h.perform(.launch(url: nil))
    #expect(h.allEvents.contains { $0.body == .call(.present("Sheet", style: .overFullScreen, navigation: false), at: nil) })
    #expect(!h.takeCalls().contains(NL + "viewWillDisappear(_:)"))
    #expect(try h.replayMatches())
    var profile = Profile(ios: 17)
    try profile.set("defaultPresentationStyle", .string("overFullScreen"))
    #expect(profile.defaultPresentationStyle == .overFullScreen)
  }
}
