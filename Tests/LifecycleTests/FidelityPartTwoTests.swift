import JSON
import Testing
@testable import Lifecycle
import LifecycleLog

// The second audit's corrections to memory warnings and to a full Notification Center pull
// (rotation, layout and overFullScreen are in FidelityPartTwoRotationTests.swift). Each test
// names its sources and pins the whole sequence in every profile it applies to; the harness
// is exhaustive and checks replay after every test (see Harness).

private let AD = "AppDelegate.", SD = "SceneDelegate.", NL = "NoteList#1."
private let memoryWarningPosted = ["UIApplication.didReceiveMemoryWarningNotification"]

@Suite struct MemoryWarningEveryInstanceTests {
  /// A tab bar app whose tabs are navigation controllers: Feed and Cart exist from launch.
  private func shop() -> ScriptedApp {
    ScriptedApp(layout: AppLayout(name: "Shop", roots: ["Feed", "Cart"], container: .tabs, tabsHaveNavigation: true))
  }

  @Test("§11 W6 memory warning: every controller instance, loaded or not, no view loaded (View Controller Programming Guide: \"Each view controller calls its didReceiveMemoryWarning method\"; S24, T19)",
        arguments: PlatformUnderTest.all)
  func everyInstance(_ p: PlatformUnderTest) throws {
    let app = shop()
    app.handlers["Cart.didReceiveMemoryWarning"] = { _ in }
    let h = try p.launched(app: app)
    try h.perform(.push("Detail"))
    h.expectCalls(Seen.pushed("Detail#1.", over: "Feed#1.", ios: p.ios))
    #expect(h.sim.state.controller("Cart#1")?.viewLoaded == false)
    try h.perform(.memoryWarning)
    h.expectCalls([AD + "applicationDidReceiveMemoryWarning(_:)", "Feed#1.didReceiveMemoryWarning()",
                   "Detail#1.didReceiveMemoryWarning()", "Cart#1.didReceiveMemoryWarning()"])
    h.expectNotifications(memoryWarningPosted)
    // The unloaded tab root ran its handler and still has no view.
    #expect(h.allEvents.contains { $0.body == .callbackDelivered(.didReceiveMemoryWarning, target: "Cart#1", handled: true, depth: 0, arguments: CallbackArguments()) })
    #expect(h.sim.state.controller("Cart#1")?.viewLoaded == false)
    try h.perform(.selectTab(2))
    // Its view loads at its first appearance, as it would have without the warning.
    h.expectCalls(Seen.tabSelected("Cart#1.", from: "Detail#1.", firstTime: true, ios: p.ios))
  }

  @Test("§11 W6 a controller popped by an earlier memory-warning handler is gone and gets none (S24)")
  func poppedDuringWarning() throws {
    let app = ScriptedApp()
    app.handlers["NoteList.didReceiveMemoryWarning"] = { sim in try? sim.appPop() }
    let h = try PlatformUnderTest(ios: 17, scenes: true).launched(app: app)
    try h.perform(.push("Detail"))
    h.expectCalls(Seen.pushed("Detail#1.", over: NL, ios: 17))
    try h.perform(.memoryWarning)
    var popped = ["Detail#1.viewWillDisappear(_:)", NL + "viewWillAppear(_:)", NL + "viewIsAppearing(_:)"]
    popped += [NL + "viewWillLayoutSubviews()", NL + "viewDidLayoutSubviews()", "Detail#1.viewDidDisappear(_:)", NL + "viewDidAppear(_:)"]
    h.expectCalls([AD + "applicationDidReceiveMemoryWarning(_:)", NL + "didReceiveMemoryWarning()"] + popped)
    h.expectNotifications(memoryWarningPosted)
  }

  @Test("§11 W6 memory warning with a full-screen modal over tabs: tabs in order, then the presented one (S24, T19)")
  func withModal() throws {
    let h = try PlatformUnderTest(ios: 17, scenes: true).launched(app: shop())
    try h.perform(.present("Sheet", style: .fullScreen, navigation: false))
    h.expectCalls(Seen.presentedFullScreen("Sheet#1.", over: "Feed#1.", ios: 17))
    try h.perform(.memoryWarning)
    h.expectCalls([AD + "applicationDidReceiveMemoryWarning(_:)", "Feed#1.didReceiveMemoryWarning()",
                   "Cart#1.didReceiveMemoryWarning()", "Sheet#1.didReceiveMemoryWarning()"])
    h.expectNotifications(memoryWarningPosted)
  }
}

@Suite struct NotificationCenterPullTests {
  private func resign(_ p: PlatformUnderTest) -> [String] {
    [p.scenes ? SD + "sceneWillResignActive(_:)" : AD + "applicationWillResignActive(_:)"]
  }

  private func becomeActive(_ p: PlatformUnderTest) -> [String] {
    [p.scenes ? SD + "sceneDidBecomeActive(_:)" : AD + "applicationDidBecomeActive(_:)"]
  }

  /// Pulling the center down all the way: resign, become active, resign.
  private func pull(_ p: PlatformUnderTest) -> (calls: [String], notes: [String]) {
    (resign(p) + becomeActive(p) + resign(p),
     Posted.resignActive(scenes: p.scenes) + Posted.becomeActive(scenes: p.scenes) + Posted.resignActive(scenes: p.scenes))
  }

  /// Closing it: become active.
  private func close(_ p: PlatformUnderTest) -> (calls: [String], notes: [String]) {
    (becomeActive(p), Posted.becomeActive(scenes: p.scenes))
  }

  @Test("§7 W7 a full Notification Center pull resigns and becomes active twice, iOS ≥ 11 (OpenRadar 49216830; OneSignal-iOS-SDK PR 1451)",
        arguments: PlatformUnderTest.all)
  func twice(_ p: PlatformUnderTest) throws {
    let h = try p.launched()
    try h.perform(.interrupt(.notificationCenter))
    h.expectCalls(pull(p).calls)
    h.expectNotifications(pull(p).notes)
    #expect(h.sim.state.appState == .inactive)
    try h.perform(.endInterrupt(.dismissed))
    h.expectCalls(close(p).calls)
    h.expectNotifications(close(p).notes)
    #expect(h.sim.state.appState == .active)
  }

  @Test("§7 W7 knob notificationCenterDoubleActivation = false restores the single pair (iOS 10 behaviour, OpenRadar 49216830)",
        arguments: PlatformUnderTest.all)
  func knobOff(_ p: PlatformUnderTest) throws {
    let h = try p.launched { try? $0.set("notificationCenterDoubleActivation", .bool(false)) }
    #expect(h.sim.profile.notificationCenterDoubleActivation == false)
    try h.perform(.interrupt(.notificationCenter))
    h.expectCalls(resign(p))
    h.expectNotifications(Posted.resignActive(scenes: p.scenes))
    try h.perform(.endInterrupt(.dismissed))
    h.expectCalls(close(p).calls)
    h.expectNotifications(close(p).notes)
  }

  @Test("§7 W7 only the Notification Center: Control Center and alerts keep one pair (T9, S16)", arguments: PlatformUnderTest.all)
  func otherOverlays(_ p: PlatformUnderTest) throws {
    let h = try p.launched()
    for kind in [Interruption.controlCenter, .alert] {
      try h.perform(.interrupt(kind), .endInterrupt(.dismissed))
      h.expectCalls(resign(p) + close(p).calls)
      h.expectNotifications(Posted.resignActive(scenes: p.scenes) + close(p).notes)
    }
  }

  @Test("§7 W7 the knob is on in every profile, recorded in the header; a header without it replays the single pair")
  func knobRecorded() throws {
    for ios in IOSRelease.headerVersions { #expect(Profile(ios: ios).notificationCenterDoubleActivation, "iOS \(ios)") }
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

/// A callback's payload and a handler's returned value survive the log's JSON form.
@Suite struct CallbackArgumentsCodingTests {
  @Test func payloadAndValueRoundTrip() throws {
    let payload = JSONValue.object([("shortcutItem", .object([("type", .string("compose"))]))])
    let bodies: [EventBody] = [
      .callbackDelivered(.willFinishLaunchingWithOptions, target: "AppDelegate", handled: true, depth: 0,
                arguments: CallbackArguments(url: "notes://1", payload: payload)),
      .returned(name: Callback.willFinishLaunchingWithOptions.signature, target: "AppDelegate", usedUs: 0, depth: 0,
                value: .bool(false)),
    ]
    for (i, body) in bodies.enumerated() {
      let logged = Event(t: 5, body).logEvent(seq: Int64(i + 1))
      #expect(try Event(logged) == Event(t: 5, body))
    }
  }
}
