import Testing
@testable import Lifecycle

// Background URL sessions (docs/model.md §16): transfers finish outside the process, and
// `transfer_done(session)` brings the app back for them as iOS does, by process state.

private let AD = BG.AD, URLS = BG.URLS
private let session = "com.example.images"
private let handleEvents = AD + "application(_:handleEventsForBackgroundURLSession:completionHandler:)"
private let didComplete = URLS + "urlSession(_:task:didCompleteWithError:)"
private let didFinishEvents = URLS + "urlSessionDidFinishEvents(forBackgroundURLSession:)"

/// An app that starts a 20 s transfer when it enters the background and, if `completes`, calls
/// the stored completion in didFinishEvents, as Apple asks (S133, S134).
private func transferApp(_ p: PlatformUnderTest, completes: Bool = true) -> ScriptedApp {
  let app = ScriptedApp()
  var completion: Int?
  app.handlers[p.scenes ? "sceneDidEnterBackground" : "applicationDidEnterBackground"] = { sim in
    if sim.state.applicationState == .background, sim.state.backgroundWork.transfers.isEmpty { try sim.appTransfer(session, us: 20_000_000) }
  }
  app.handlers["handleEventsForBackgroundURLSession"] = { sim in completion = sim.state.completions.last?.id }
  app.handlers["didCompleteWithError"] = { _ in }
  app.handlers["didFinishEvents"] = { sim in if completes, let completion { try sim.complete(completion) } }
  return app
}

@Suite struct BackgroundTransferTests {
  @Test("a transfer finishing while the app runs: the task's delegate callback directly, no handleEvents (S133, S134)",
        arguments: [PlatformUnderTest(ios: 12, scenes: false), PlatformUnderTest(ios: 17, scenes: true)])
  func whileRunning(_ p: PlatformUnderTest) throws {
    let app = transferApp(p)
    app.handlers[p.scenes ? "sceneDidBecomeActive" : "applicationDidBecomeActive"] = { sim in try sim.appTransfer(session) }
    let h = try p.launched(app: app)
    try h.perform(.transferDone(session))
    h.expectCalls([didComplete])
    h.expectSystem([])
    #expect(h.sim.state.backgroundWork.transfers.isEmpty)
  }

  @Test("a guard of the driver stops the host delivering what the app queued (--wall-limit covers host work)")
  func hostWorkStopsWhenTheDriverSaysSo() throws {
    let p = PlatformUnderTest(ios: 17, scenes: true)
    let app = transferApp(p)
    app.handlers["sceneDidBecomeActive"] = { sim in for _ in 0..<5 { try sim.appTransfer(session) } }
    let h = try p.launched(app: app)
    app.hostWorkSteps = 2
    try h.perform(.transferDone(session))
    h.expectCalls([didComplete, didComplete])
    #expect(h.sim.state.backgroundWork.transfers.map(\.id) == [3, 4, 5])
  }

  @Test("suspended: resumed → handleEventsForBackgroundURLSession → didCompleteWithError → didFinishEvents → the completion → suspended (S133, S134, F112)",
        arguments: [PlatformUnderTest(ios: 12, scenes: false), PlatformUnderTest(ios: 13, scenes: true), PlatformUnderTest(ios: 26, scenes: false)])
  func fromSuspension(_ p: PlatformUnderTest) throws {
    let h = try p.launched(app: transferApp(p))
    try h.perform(.home)
    h.expectHome()
    #expect(throws: ScenarioError("transfer_done(): no transfer of session \"com.example.images\" has run its time yet (the first finishes at 20.000000 s) (state: suspended)")) {
      try h.perform(.transferDone(session))
    }
    try h.perform(.advance(us: 20_000_000), .transferDone(session))
    h.expectCalls([handleEvents, didComplete, didFinishEvents])
    h.expectNotifications([])
    h.expectSystem(["resumed", "suspended"])
  }

  @Test("not running: a background launch with no scene (sceneless: the window and didEnterBackground), then handleEvents and the task events (S133, S3)",
        arguments: [PlatformUnderTest(ios: 12, scenes: false), PlatformUnderTest(ios: 17, scenes: true), PlatformUnderTest(ios: 26, scenes: true)])
  func coldLaunch(_ p: PlatformUnderTest) throws {
    let h = try p.launched(app: transferApp(p))
    try h.perform(.home, .memoryPressure)
    h.expectHome(system: ["suspended", "terminated jetsam: vm-pageshortage: the system reclaimed the suspended app's memory"])
    try h.perform(.advance(us: 30_000_000), .transferDone(session))
    h.expectCalls(BG.backgroundLaunch(p, instance: 2) + [handleEvents, didComplete, didFinishEvents])
    h.expectNotifications(BG.backgroundLaunchNotifications(p))
    h.expectSystem(BG.backgroundLaunchSystem(p) + ["suspended"])
    #expect(h.sim.state.scenes.isEmpty)
  }

  @Test("handleEvents' completion never called: killed 30 s into the background, background_task_expired 0x2182bad3 (S133, S27)",
        arguments: [PlatformUnderTest(ios: 13, scenes: true), PlatformUnderTest(ios: 17, scenes: false)])
  func completionKill(_ p: PlatformUnderTest) throws {
    let h = try p.launched(app: transferApp(p, completes: false))
    try h.perform(.home)
    h.expectHome()
    try h.perform(.advance(us: 20_000_000), .transferDone(session))
    let deliveredAt = h.sim.clock
    h.expectCalls([handleEvents, didComplete, didFinishEvents])
    h.expectSystem(["resumed"])
    try h.perform(.advance(us: 40_000_000))
    h.expectSystem(["terminated background_task_expired 0x2182bad3: application(_:handleEventsForBackgroundURLSession:completionHandler:) did not call its completion handler within 30.00 seconds"])
    #expect(h.allEvents.last?.t == deliveredAt + 30_000_000)
  }

  @Test("a force quit cancels the transfers: nothing relaunches the app for them, and at the user's next launch each fails with −999 (F108)",
        arguments: [PlatformUnderTest(ios: 17, scenes: true), PlatformUnderTest(ios: 17, scenes: false)])
  func forceQuitCancels(_ p: PlatformUnderTest) throws {
    let h = try p.launched(app: transferApp(p))
    try h.perform(.home, .appSwitcher, .forceQuit, .advance(us: 30_000_000))
    h.expectHome(system: ["suspended", "terminated user: force quit from the app switcher while suspended"])
    #expect(throws: ScenarioError("transfer_done(): the transfers of session \"com.example.images\" were cancelled by the force quit (state: not_running)")) {
      try h.perform(.transferDone(session))
    }
    try h.perform(.launch(url: nil))
    h.expectCalls((p.scenes ? StandardLaunch.sceneCalls(ios: 17, discarded: true, instance: 2)
                            : StandardLaunch.scenelessCalls(ios: 17, roots: ["NoteList#2"])) + [didComplete])
    h.expectNotifications(p.scenes ? StandardLaunch.sceneNotifications : StandardLaunch.scenelessNotifications)
    h.expectSystem(StandardLaunch.system(h.sim.profile))
    let error = h.allEvents.last { if case .callbackDelivered(.didCompleteWithError, _, _, _, _) = $0.body { return true } else { return false } }
    if case let .callbackDelivered(_, _, _, _, arguments)? = error?.body {
      #expect(arguments.payload?["error"]?["code"]?.intValue == -999)
    } else {
      Issue.record("no didCompleteWithError")
    }
    #expect(h.sim.state.backgroundWork.transfers.isEmpty)
  }
}
