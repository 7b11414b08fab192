import JSON
import Testing
@testable import Lifecycle

// docs/model.md §15, quick actions, universal links and Handoff: each sequence pinned whole
// (callbacks with their full signatures, notifications, system events and notes), for scene
// and sceneless apps and every iOS range where the launch differs. Sources are docs/model.md's keys.

private let AD = Opened.AD, SD = Opened.SD
private let appAction = AD + "application(_:performActionFor:completionHandler:)"
private let sceneAction = SD + "windowScene(_:performActionFor:completionHandler:)"
private let appWillContinue = AD + "application(_:willContinueUserActivityWithType:)"
private let appContinue = AD + "application(_:continue:restorationHandler:)"
private let sceneWillContinue = SD + "scene(_:willContinueUserActivityWithType:)"
private let sceneContinue = SD + "scene(_:continue:)"
private let link = "https://notes.example.com/note/42"
private let linkActivity = JSONValue.object([("activityType", .string("NSUserActivityTypeBrowsingWeb")), ("webpageURL", .string(link))])
private let actionNote = "note completionNotCalled: windowScene(_:performActionFor:completionHandler:) returned without calling its completion handler; UIKit does not end the app for it"

/// An app that implements the quick-action and activity methods of both delegates.
private func openingApp() -> ScriptedApp {
  let app = ScriptedApp()
  for key in ["performActionForShortcutItem", "willContinueUserActivityWithType", "continueUserActivity",
              "didFailToContinueUserActivity"] {
    app.handlers[key] = { sim in if let id = sim.state.openings.softCompletions.last?.id { try sim.complete(id) } }
  }
  return app
}

@Suite struct QuickActionTests {
  @Test("§15 quick action, scene app, cold: options.shortcutItem in willConnectTo and no windowScene(_:performActionFor:) (S-cos, T-ns)",
        arguments: [13, 17, 26])
  func sceneCold(_ ios: Int) throws {
    let h = Harness(ios: ios, scenes: true, app: openingApp())
    try h.perform(.quickAction(type: "compose"))
    h.expectStandardLaunch()
    #expect(Opened.payload(of: .willConnectTo, in: h) == .object([("options", .object([("shortcutItem", .object([("type", .string("compose"))]))]))]))
  }

  @Test("§15 quick action, scene app, warm: sceneWillEnterForeground, windowScene(_:performActionFor:), sceneDidBecomeActive; never the app delegate's (S-wpa, T-ns)")
  func sceneWarm() throws {
    let app = openingApp()
    app.handlers["performActionForShortcutItem"] = { _ in }  // never calls its completion: no kill
    let h = try PlatformUnderTest(ios: 17, scenes: true).launched(app: app)
    try h.perform(.home)
    h.expectHome()
    try h.perform(.quickAction(type: "compose"))
    h.expectCalls(Opened.back(scenes: true, inserting: [sceneAction]))
    h.expectNotifications(Posted.back(scenes: true))
    h.expectSystem(["resumed", actionNote])
    #expect(Opened.payload(of: .scenePerformActionForShortcutItem, in: h) == .object([("item", .object([("type", .string("compose"))]))]))
  }

  @Test("§15 quick action for a scene app launched in the background: its first scene connects with options.shortcutItem, no performActionFor (S-cos, S1)")
  func sceneConnectingAfterBackgroundLaunch() throws {
    let app = openingApp()
    app.handlers["didReceiveRemoteNotification"] = { sim in try sim.completeLatest() }
    let h = Harness(ios: 17, scenes: true, app: app)
    try h.perform(.backgroundLaunch(.push))
    h.expectCalls([AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)",
                   AD + "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"])
    h.expectNotifications(["UIApplication.didFinishLaunchingNotification"])
    h.expectSystem(["started background, background", "suspended"])
    try h.perform(.quickAction(type: "compose"))
    h.expectCalls(Array(StandardLaunch.sceneCalls(ios: 17).dropFirst(2)))
    h.expectNotifications(Array(StandardLaunch.sceneNotifications.dropFirst()))
    h.expectSystem(["resumed"])
    #expect(Opened.payload(of: .willConnectTo, in: h) == .object([("options", .object([("shortcutItem", .object([("type", .string("compose"))]))]))]))
  }

  @Test("§15 quick action, sceneless, cold: launchOptions.shortcutItem, then performActionFor before applicationDidBecomeActive (S-pa, T-so357)",
        arguments: [12, 17, 26])
  func scenelessCold(_ ios: Int) throws {
    let h = Harness(ios: ios, scenes: false, app: openingApp())
    try h.perform(.quickAction(type: "compose"))
    h.expectCalls(Opened.coldLaunch(PlatformUnderTest(ios: ios, scenes: false), inserting: [appAction]))
    h.expectNotifications(StandardLaunch.scenelessNotifications)
    h.expectSystem(StandardLaunch.system(h.sim.profile))
    #expect(Opened.payload(of: .willFinishLaunchingWithOptions, in: h) == .object([("options", .object([("shortcutItem", .object([("type", .string("compose"))]))]))]))
  }

  @Test("§15 quick action, sceneless, cold: a false from willFinish or didFinish means the app handled it, no performActionFor (S-appchat, S-pa, T-so357, T-rec)",
        arguments: ["willFinishLaunchingWithOptions", "didFinishLaunchingWithOptions"])
  func scenelessColdDeclined(_ method: String) throws {
    let app = openingApp()
    app.returns[method] = .bool(false)
    let h = Harness(ios: 17, scenes: false, app: app)
    try h.perform(.quickAction(type: "compose"))
    h.expectCalls(StandardLaunch.scenelessCalls(ios: 17))
    h.expectNotifications(StandardLaunch.scenelessNotifications)
    h.expectSystem(StandardLaunch.system(h.sim.profile) + ["note launchOptionHandled: willFinishLaunchingWithOptions or didFinishLaunchingWithOptions returned false: the quick action in the launch options is not delivered again"])
  }

  @Test("§15 quick action, sceneless, warm: applicationWillEnterForeground, performActionFor, applicationDidBecomeActive; knob quickActionPlacement (S-pa, T-so357)",
        arguments: [12, 17])
  func scenelessWarm(_ ios: Int) throws {
    for placement in Profile.OpeningPlacement.allCases {
      let h = try PlatformUnderTest(ios: ios, scenes: false).launched(app: openingApp()) { $0.quickActionPlacement = placement }
      try h.perform(.home)
      h.expectHome()
      try h.perform(.quickAction(type: "compose"))
      h.expectCalls(Opened.back(scenes: false, inserting: [appAction], after: placement == .afterDidBecomeActive))
      h.expectNotifications(Posted.back(scenes: false))
      h.expectSystem(["resumed"])
    }
  }
}

@Suite struct UserActivityTests {
  @Test("§15 universal link, sceneless, cold: userActivityDictionary, willContinue, continue (restorationHandler: restoreUserActivityState), applicationDidBecomeActive (T7, T-rec, S-rua)",
        arguments: [12, 17, 26])
  func scenelessColdLink(_ ios: Int) throws {
    let app = openingApp()
    app.handlers["continueUserActivity"] = { sim in
      do { try sim.handle(.restorationHandler(controllers: ["NoteList#1"], activity: linkActivity)) } catch { throw ProcessEnded() }
    }
    let h = Harness(ios: ios, scenes: false, app: app)
    try h.perform(.universalLink(url: link))
    h.expectCalls(Opened.coldLaunch(PlatformUnderTest(ios: ios, scenes: false),
                                    inserting: [appWillContinue, appContinue, "NoteList#1.restoreUserActivityState(_:)"]))
    h.expectNotifications(StandardLaunch.scenelessNotifications)
    h.expectSystem(StandardLaunch.system(h.sim.profile))
    #expect(Opened.payload(of: .willFinishLaunchingWithOptions, in: h) == .object([("options", .object([("userActivityDictionary", linkActivity)]))]))
    #expect(Opened.payload(of: .restoreUserActivityState, in: h) == .object([("activity", linkActivity)]))
  }

  @Test("§15 universal link, sceneless, cold: nothing follows a false from didFinish (T-rec)")
  func scenelessColdLinkDeclined() throws {
    let app = openingApp()
    app.returns["didFinishLaunchingWithOptions"] = .bool(false)
    let h = Harness(ios: 17, scenes: false, app: app)
    try h.perform(.universalLink(url: link))
    h.expectCalls(StandardLaunch.scenelessCalls(ios: 17))
    h.expectNotifications(StandardLaunch.scenelessNotifications)
    h.expectSystem(StandardLaunch.system(h.sim.profile) + ["note launchOptionHandled: willFinishLaunchingWithOptions or didFinishLaunchingWithOptions returned false: the user activity in the launch options is not delivered again"])
  }

  @Test("§15 universal link or Handoff, warm: will-enter-foreground, willContinue, continue, did-become-active, with the scene's methods in a scene app (T7, S-swc, S-sc)",
        arguments: [PlatformUnderTest(ios: 17, scenes: false), PlatformUnderTest(ios: 17, scenes: true)])
  func warm(_ p: PlatformUnderTest) throws {
    for input in [Input.universalLink(url: link), .handoff(type: "com.example.notes.editing")] {
      let h = try p.launched(app: openingApp())
      try h.perform(.home)
      h.expectHome()
      try h.perform(input)
      h.expectCalls(Opened.back(scenes: p.scenes, inserting: p.scenes ? [sceneWillContinue, sceneContinue] : [appWillContinue, appContinue]))
      h.expectNotifications(Posted.back(scenes: p.scenes))
      h.expectSystem(["resumed"])
    }
  }

  @Test("§15 universal link or Handoff, active app: willContinue and continue alone, no transition (T7, S-swc, S-sc)",
        arguments: [PlatformUnderTest(ios: 17, scenes: false), PlatformUnderTest(ios: 17, scenes: true)])
  func active(_ p: PlatformUnderTest) throws {
    for input in [Input.universalLink(url: link), .handoff(type: "com.example.notes.editing")] {
      let h = try p.launched(app: openingApp())
      try h.perform(input)
      h.expectCalls(p.scenes ? [sceneWillContinue, sceneContinue] : [appWillContinue, appContinue])
      h.expectNotifications([])
      h.expectSystem([])
    }
  }

  @Test("§15 universal link, scene app, cold: only options.userActivities, no scene(_:continue:) (S-coua, S36)", arguments: [13, 26])
  func sceneColdLink(_ ios: Int) throws {
    let h = Harness(ios: ios, scenes: true, app: openingApp())
    try h.perform(.universalLink(url: link))
    h.expectStandardLaunch()
    try h.perform(.advance(us: 5_000_000))
    h.expectCalls([])
    #expect(Opened.payload(of: .willConnectTo, in: h) == .object([("options", .object([("userActivities", .array([linkActivity]))]))]))
  }

  @Test("§15 Handoff, scene app, cold: options.handoffUserActivityType, then scene(_:continue:) handoffTransferDelay after sceneDidBecomeActive (S-coh, S-sc)")
  func sceneColdHandoff() throws {
    let h = Harness(ios: 17, scenes: true, app: openingApp())
    try h.perform(.handoff(type: "com.example.notes.editing"))
    h.expectStandardLaunch()
    #expect(Opened.payload(of: .willConnectTo, in: h) == .object([("options", .object([("handoffUserActivityType", .string("com.example.notes.editing"))]))]))
    try h.perform(.advance(us: 400_000))
    h.expectCalls([])
    try h.perform(.advance(us: 200_000))
    h.expectCalls([sceneContinue])
    #expect(h.allEvents.last { if case .callbackDelivered(.sceneContinueUserActivity, _, _, _, _) = $0.body { true } else { false } }?.t == 500_000)
    #expect(h.sim.state.openings.pendingHandoff == nil)
  }

  @Test("§15 knob continueActivityFails: scene(_:didFailToContinueUserActivityWithType:error:) in place of continue (T-wwdc21, S-swc)")
  func continueFails() throws {
    let h = try PlatformUnderTest(ios: 17, scenes: true).launched(app: openingApp()) { $0.continueActivityFails = true }
    try h.perform(.home)
    h.expectHome()
    try h.perform(.handoff(type: "com.example.notes.editing"))
    h.expectCalls(Opened.back(scenes: true, inserting: [sceneWillContinue, SD + "scene(_:didFailToContinueUserActivityWithType:error:)"]))
    h.expectNotifications(Posted.back(scenes: true))
    h.expectSystem(["resumed"])
  }

  @Test("expect_calls: a bare shared key matches either delegate; SceneDelegate.key and the full signature match one")
  func sharedKeys() throws {
    let h = try PlatformUnderTest(ios: 17, scenes: true).launched(app: openingApp())
    try h.perform(.home)
    h.expectHome()
    try h.perform(.universalLink(url: link))
    h.skipRemainingEvents()
    let call = CallRecord(callback: .sceneContinueUserActivity, target: "SceneDelegate")
    #expect(try CallPattern("continueUserActivity").matches(call))
    #expect(try CallPattern("SceneDelegate.continueUserActivity").matches(call))
    #expect(try CallPattern("scene(_:continue:)").matches(call))
    #expect(try !CallPattern("AppDelegate.continueUserActivity").matches(call))
    #expect(try !CallPattern("application(_:continue:restorationHandler:)").matches(call))
    #expect(throws: ScenarioError("unknown callback \"sceneContinueUserActivity\" (did you mean continueUserActivity?)")) {
      try CallPattern("sceneContinueUserActivity")
    }
  }
}
