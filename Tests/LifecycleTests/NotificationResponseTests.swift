import JSON
import Testing
@testable import Lifecycle

// docs/model.md §15, notification responses: each sequence pinned whole (callbacks with their
// full signatures, notifications, system events and notes), for scene and sceneless apps and
// every iOS range where the launch differs. Sources are docs/model.md's keys.

private let AD = Opened.AD, SD = Opened.SD, ND = Opened.ND, didReceive = Opened.didReceive
private let willPresent = ND + "userNotificationCenter(_:willPresent:withCompletionHandler:)"

@Suite struct NotificationResponseTests {
  @Test("§15 a tap launches the app: didReceive inactive, after sceneWillEnterForeground (scenes) or before applicationDidBecomeActive (T-oh, T-df, T7, S-un, S-unr)",
        arguments: PlatformUnderTest.all)
  func coldTap(_ p: PlatformUnderTest) throws {
    let app = ScriptedApp.withNotificationDelegate()
    var stateAtDidReceive: ApplicationState?
    app.handlers["didReceive"] = { sim in stateAtDidReceive = sim.state.applicationState; try sim.completeLatest() }
    let h = Harness(ios: p.ios, scenes: p.scenes, app: app)
    try h.perform(.tapNotification(id: "m1", action: "default", foreground: false))
    h.expectCalls(Opened.coldLaunch(p, inserting: [didReceive]))
    h.expectNotifications(p.scenes ? StandardLaunch.sceneNotifications : StandardLaunch.scenelessNotifications)
    h.expectSystem(StandardLaunch.system(h.sim.profile))
    #expect(stateAtDidReceive == .inactive)
    let response = JSONValue.object([("response", .object([("action", .string("default")), ("id", .string("m1"))]))])
    #expect(Opened.payload(of: .didReceive, in: h) == response)
    if p.scenes {
      #expect(Opened.payload(of: .willConnectTo, in: h) == .object([("options", .object([("notificationResponse", .object([("action", .string("default")), ("id", .string("m1"))]))]))]))
      #expect(Opened.payload(of: .willFinishLaunchingWithOptions, in: h) == nil)
    } else {
      #expect(Opened.payload(of: .didFinishLaunchingWithOptions, in: h) == .object([("options", .object([("remoteNotification", .object([("id", .string("m1"))]))]))]))
    }
  }

  @Test("§15 a delegate set after didFinishLaunching returned misses the response that launched the app (T-dc, S-un)",
        arguments: [PlatformUnderTest(ios: 17, scenes: true), PlatformUnderTest(ios: 17, scenes: false)])
  func lateDelegateDropsTheLaunchResponse(_ p: PlatformUnderTest) throws {
    let app = ScriptedApp()
    app.handlers["didReceive"] = { _ in }
    // Set "asynchronously": after launch, in the first activation.
    app.handlers[p.scenes ? "sceneDidBecomeActive" : "applicationDidBecomeActive"] = { sim in try sim.setNotificationDelegate() }
    let h = Harness(ios: p.ios, scenes: p.scenes, app: app)
    try h.perform(.tapNotification(id: "m1", action: "default", foreground: false))
    h.expectCalls(Opened.coldLaunch(p, inserting: []))
    h.expectNotifications(p.scenes ? StandardLaunch.sceneNotifications : StandardLaunch.scenelessNotifications)
    h.expectSystem(StandardLaunch.system(h.sim.profile) + ["note notificationResponseDropped: UNUserNotificationCenter:setDelegate() was not called before didFinishLaunchingWithOptions returned: the response that launched the app is dropped [notification_delegate_late]"])
    // Now set, a later tap reaches it (warm, from the background).
    try h.perform(.home)
    h.expectHome()
    try h.perform(.tapNotification(id: "m2", action: "default", foreground: false))
    h.expectCalls(Opened.back(scenes: p.scenes, inserting: [didReceive]))
    h.expectNotifications(Posted.back(scenes: p.scenes))
    h.expectSystem(["resumed", "note completionNotCalled: userNotificationCenter(_:didReceive:withCompletionHandler:) returned without calling its completion handler; UIKit does not end the app for it"])
  }

  @Test("§15 knob coldNotificationResponse: connectionOptionsOnly has no didReceive, delegateOnly no options.notificationResponse (T-df, T-omw)")
  func coldNotificationResponseKnob() throws {
    let p = PlatformUnderTest(ios: 17, scenes: true)
    let only = Harness(ios: 17, scenes: true, app: .withNotificationDelegate()) { $0.coldNotificationResponse = .connectionOptionsOnly }
    try only.perform(.tapNotification(id: "m1", action: "default", foreground: false))
    only.expectStandardLaunch()
    #expect(Opened.payload(of: .willConnectTo, in: only)?["options"]?["notificationResponse"] != nil)
    let delegate = Harness(ios: 17, scenes: true, app: .withNotificationDelegate()) { $0.coldNotificationResponse = .delegateOnly }
    try delegate.perform(.tapNotification(id: "m1", action: "default", foreground: false))
    delegate.expectCalls(Opened.coldLaunch(p, inserting: [didReceive]))
    delegate.expectNotifications(StandardLaunch.sceneNotifications)
    delegate.expectSystem(StandardLaunch.system(delegate.sim.profile))
    #expect(Opened.payload(of: .willConnectTo, in: delegate) == nil)
  }

  @Test("§15 a tap on a suspended app: will-enter-foreground, didReceive, did-become-active; knob afterDidBecomeActive moves it (T7, T-oh)",
        arguments: [PlatformUnderTest(ios: 12, scenes: false), PlatformUnderTest(ios: 17, scenes: false), PlatformUnderTest(ios: 17, scenes: true)])
  func warmTap(_ p: PlatformUnderTest) throws {
    for placement in Profile.OpeningPlacement.allCases {
      let h = try p.launched(app: .withNotificationDelegate()) { $0.notificationResponsePlacement = placement }
      try h.perform(.home)
      h.expectHome(visible: ["NoteList#1"])
      try h.perform(.tapNotification(id: "m1", action: "default", foreground: false))
      h.expectCalls(Opened.back(scenes: p.scenes, inserting: [didReceive], after: placement == .afterDidBecomeActive))
      h.expectNotifications(Posted.back(scenes: p.scenes))
      h.expectSystem(["resumed"])
    }
  }

  @Test("§15 a banner tapped while the app is active: didReceive alone; notify: willPresent, and nothing ends the app for a completion never called (S-un, S-unr)",
        arguments: [PlatformUnderTest(ios: 17, scenes: false), PlatformUnderTest(ios: 17, scenes: true)])
  func activeApp(_ p: PlatformUnderTest) throws {
    let h = try p.launched(app: .withNotificationDelegate(completes: false))
    try h.perform(.notify(id: "m1"))
    h.expectCalls([willPresent])
    h.expectNotifications([])
    h.expectSystem(["note completionNotCalled: userNotificationCenter(_:willPresent:withCompletionHandler:) returned without calling its completion handler; UIKit does not end the app for it"])
    #expect(Opened.payload(of: .willPresent, in: h) == .object([("notification", .object([("id", .string("m1"))]))]))
    try h.perform(.tapNotification(id: "m1", action: "default", foreground: false))
    h.expectCalls([didReceive])
    h.expectNotifications([])
    h.expectSystem(["note completionNotCalled: userNotificationCenter(_:didReceive:withCompletionHandler:) returned without calling its completion handler; UIKit does not end the app for it"])
    // The uncalled completions keep nothing running: home suspends, and 60 s kill nothing.
    try h.perform(.home)
    h.expectHome()
    try h.perform(.advance(us: 60_000_000))
    h.expectSystem([])
    #expect(h.sim.state.appState == .suspended)
  }

  @Test("§15 notify without a notification delegate: nothing is called, a note says why (S-un)")
  func notifyWithoutDelegate() throws {
    let h = try PlatformUnderTest(ios: 17, scenes: true).launched()
    try h.perform(.notify(id: "m1"))
    h.expectCalls([])
    h.expectSystem(["note notificationNotPresented: no UNUserNotificationCenter delegate: a notification that arrives while the app is in the foreground is not shown"])
  }

  @Test("§15 handlers defined but no setDelegate(): the notes name what the app forgot")
  func handlersWithoutSetDelegate() throws {
    let app = ScriptedApp()
    app.handlers["didReceive"] = { _ in }
    app.handlers["willPresent"] = { _ in }
    let h = Harness(ios: 17, scenes: true, app: app)
    try h.perform(.launch(url: nil))
    h.skipRemainingEvents()
    try h.perform(.notify(id: "m1"))
    h.expectCalls([])
    h.expectSystem(["note notificationNotPresented: no UNUserNotificationCenter delegate: a notification that arrives while the app is in the foreground is not shown (the app defines NotificationDelegate.willPresent but never called UNUserNotificationCenter:setDelegate())"])
    try h.perform(.tapNotification(id: "m1", action: "default", foreground: false))
    h.expectCalls([])
    h.expectSystem(["note notificationResponseDropped: no UNUserNotificationCenter delegate: the response is dropped (the app defines NotificationDelegate.didReceive but never called UNUserNotificationCenter:setDelegate())"])
  }

  @Test("§15 an action without the foreground option launches the app in the background, no scene; its completion is due within 30 s, 0x2182bad2 (S-unr, S27)",
        arguments: [PlatformUnderTest(ios: 17, scenes: true), PlatformUnderTest(ios: 17, scenes: false)])
  func backgroundAction(_ p: PlatformUnderTest) throws {
    let h = Harness(ios: p.ios, scenes: p.scenes, app: .withNotificationDelegate(completes: false))
    try h.perform(.tapNotification(id: "m1", action: "archive", foreground: false))
    if p.scenes {
      h.expectCalls([AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)", didReceive])
      h.expectNotifications(["UIApplication.didFinishLaunchingNotification"])
    } else {
      let NL = "NoteList#1."
      h.expectCalls([NL + "init(coder:)", AD + "application(_:willFinishLaunchingWithOptions:)",
                     AD + "application(_:didFinishLaunchingWithOptions:)", NL + "loadView()", NL + "viewDidLoad()"]
                    + Seen.appearing(NL, ios: p.ios) + [NL + "viewDidAppear(_:)", AD + "applicationDidEnterBackground(_:)", didReceive])
      h.expectNotifications(["UIApplication.didFinishLaunchingNotification", "UIApplication.didEnterBackgroundNotification"])
    }
    h.expectSystem(["started background, background"])
    #expect(Opened.payload(of: .didReceive, in: h)?["response"]?["action"] == .string("archive"))
    try h.perform(.advance(us: 29_000_000))
    h.expectSystem([])
    try h.perform(.advance(us: 2_000_000))
    h.expectSystem(["terminated background_task_expired 0x2182bad2: userNotificationCenter(_:didReceive:withCompletionHandler:) did not call its completion handler within 30.00 seconds"])
    #expect(h.allEvents.last?.t == 30_000_000)
  }

  @Test("§15 an action run in the background that calls its completion lets the app suspend; with foreground = true it opens the app (S-unr)")
  func backgroundActionCompleted() throws {
    let h = Harness(ios: 17, scenes: true, app: .withNotificationDelegate())
    try h.perform(.tapNotification(id: "m1", action: "archive", foreground: false))
    h.expectCalls([AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)", didReceive])
    h.expectNotifications(["UIApplication.didFinishLaunchingNotification"])
    h.expectSystem(["started background, background", "suspended"])
    try h.perform(.tapNotification(id: "m1", action: "reply", foreground: true))
    h.expectCalls(Array(StandardLaunch.sceneCalls(ios: 17).dropFirst(2)).flatMap { $0 == SD + "sceneWillEnterForeground(_:)" ? [$0, didReceive] : [$0] })
    h.expectNotifications(Array(StandardLaunch.sceneNotifications.dropFirst()))
    h.expectSystem(["resumed"])
  }
}
