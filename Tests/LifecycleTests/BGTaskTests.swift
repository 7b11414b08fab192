import Testing
@testable import Lifecycle

// BGTaskScheduler (docs/model.md §16): where a launch handler runs (cold with no scene, from
// suspension, in the background), registration and submission rules, expiry, the kill of a
// task never completed, processing tasks, force quit, and background fetch from iOS 13.
// Every sequence is pinned whole: callbacks, notifications and system events.

private let AD = BG.AD, SD = BG.SD

/// The app, launched and sent home: at entering the background it submits `request`.
private func launchedAndHome(_ p: PlatformUnderTest, _ app: ScriptedApp, request: BGTaskRequest = BGTaskRequest(identifier: BG.refresh, kind: .refresh),
                             knobs: (inout Profile) -> Void = { _ in }) throws -> Harness {
  let submit: ScriptedApp.Handler = { sim in try sim.appSubmit(request) }
  app.handlers[p.scenes ? "sceneDidEnterBackground" : "applicationDidEnterBackground"] = submit
  let h = try p.launched(app: app, knobs: knobs)
  try h.perform(.home)
  h.expectHome()
  return h
}

@Suite struct BGTaskLaunchTests {
  @Test("bg_task on an app not running: a background launch that connects no scene, then the launch handler; the user's launch connects it (S112, S118, W1, S3)",
        arguments: BG.platforms)
  func coldLaunch(_ p: PlatformUnderTest) throws {
    let h = try launchedAndHome(p, BG.app { sim in try sim.appSetTaskCompleted(BG.refresh, true) })
    try h.perform(.memoryPressure)
    h.expectSystem(["terminated jetsam: vm-pageshortage: the system reclaimed the suspended app's memory"])
    try h.perform(.bgTask(BG.refresh))
    h.expectCalls(BG.backgroundLaunch(p, instance: 2) + [BG.launchHandler(BG.refresh)])
    h.expectNotifications(BG.backgroundLaunchNotifications(p))
    h.expectSystem(BG.backgroundLaunchSystem(p) + ["suspended"])
    #expect(h.sim.state.scenes.isEmpty && h.sim.state.backgroundWork.pending.isEmpty)
    try h.perform(.launch(url: nil))
    if p.scenes {
      h.expectCalls(Array(StandardLaunch.sceneCalls(ios: p.ios, newSession: false, instance: 2).dropFirst(2)))
      h.expectNotifications(Array(StandardLaunch.sceneNotifications.dropFirst()))
    } else {
      h.expectCalls([AD + "applicationWillEnterForeground(_:)", AD + "applicationDidBecomeActive(_:)"])
      h.expectNotifications(Posted.back(scenes: false))
    }
    h.expectSystem(["resumed"])
  }

  @Test("bg_task on a suspended app: resumed, then the launch handler alone (no didEnterBackground), suspended once completed (S112, W1)",
        arguments: BG.platforms)
  func fromSuspension(_ p: PlatformUnderTest) throws {
    let h = try launchedAndHome(p, BG.app { sim in try sim.appSetTaskCompleted(BG.refresh, true) })
    try h.perform(.bgTask(BG.refresh))
    h.expectCalls([BG.launchHandler(BG.refresh)])
    h.expectNotifications([])
    h.expectSystem(["resumed", "suspended"])
  }

  @Test("bg_task on an app running in the background: the launch handler at once; its work spends task time, not main-thread time (S112, D2)",
        arguments: BG.platforms)
  func whileRunning(_ p: PlatformUnderTest) throws {
    let app = BG.app { sim in
      try sim.work(us: 12_000_000)
      try sim.appSetTaskCompleted(BG.refresh, true)
    }
    app.handlers[p.scenes ? "sceneDidEnterBackground" : "applicationDidEnterBackground"] = { sim in
      try sim.appSubmit(BGTaskRequest(identifier: BG.refresh, kind: .refresh))
      let task = try sim.beginBackgroundTask(name: "save")
      app.expirations[task] = { sim in try sim.endBackgroundTask(task) }
    }
    let h = try p.launched(app: app)
    try h.perform(.home)
    h.expectHome(system: [])
    let startedAt = h.sim.clock
    try h.perform(.bgTask(BG.refresh))
    h.expectCalls([BG.launchHandler(BG.refresh)])
    h.expectSystem([])
    #expect(h.sim.clock == startedAt + 12_000_000)
    try h.perform(.advance(us: 20_000_000))
    h.expectCalls(["BackgroundTask#1.expirationHandler()"])
    h.expectSystem(["suspended"])
  }

  @Test("bg_task is refused in the foreground, before it is due, without external power, for no pending request, and on iOS 12 (S113, S114, S118)")
  func refusals() throws {
    let h = try PlatformUnderTest(ios: 17, scenes: true).launched(app: BG.app())
    #expect(throws: ScenarioError("bg_task(): no task request \"com.example.refresh\" is pending (state: active)")) {
      try h.perform(.bgTask(BG.refresh))
    }
    let later = BGTaskRequest(identifier: BG.refresh, kind: .refresh, earliestBeginUs: 900_000_000)
    let plugged = BGTaskRequest(identifier: BG.cleanup, kind: .processing, requiresExternalPower: true)
    h.app.handlers["sceneDidBecomeActive"] = { sim in
      let answers = [try sim.appSubmit(later), try sim.appSubmit(plugged)]
      #expect(answers == [.pending, .pending])
    }
    try h.perform(.appSwitcher, .switchTo(other: false))
    h.expectCalls([SD + "sceneWillResignActive(_:)", SD + "sceneDidBecomeActive(_:)"])
    h.expectNotifications(Posted.resignActive(scenes: true) + Posted.becomeActive(scenes: true))
    #expect(throws: ScenarioError("bg_task(): the system runs no BGTask while the app is in the foreground (state: active)")) {
      try h.perform(.bgTask(BG.cleanup))
    }
    try h.perform(.home)
    h.expectHome()
    #expect(throws: ScenarioError("bg_task(): the request \"com.example.refresh\" is not due before 900.000000 s (state: suspended)")) {
      try h.perform(.bgTask(BG.refresh))
    }
    #expect(throws: ScenarioError("bg_task(): the request \"com.example.cleanup\" requires external power: power(true) first (state: suspended)")) {
      try h.perform(.bgTask(BG.cleanup))
    }
    let old = Harness(ios: 12, scenes: false, app: BG.app())
    #expect(throws: ScenarioError("bg_task(): BGTaskScheduler needs iOS 13 or later (profile: iOS 12) (state: not_running)")) {
      try old.perform(.bgTask(BG.refresh))
    }
  }
}

@Suite struct BGTaskRegistrationTests {
  @Test("register after didFinishLaunching has returned crashes inside the call with NSInternalInconsistencyException (S112, D2, T121)",
        arguments: [PlatformUnderTest(ios: 13, scenes: true), PlatformUnderTest(ios: 17, scenes: false)])
  func lateRegistration(_ p: PlatformUnderTest) throws {
    let app = ScriptedApp(layout: AppLayout(name: "Feed", roots: ["NoteList"], container: .navigation, bgTaskIdentifiers: [BG.refresh]))
    app.handlers[p.scenes ? "sceneDidBecomeActive" : "applicationDidBecomeActive"] = { sim in try sim.appRegister(BG.refresh) }
    let h = Harness(ios: p.ios, scenes: p.scenes, app: app)
    try h.perform(.launch(url: nil))
    h.expectCalls(p.scenes ? StandardLaunch.sceneCalls(ios: p.ios).dropLast() : StandardLaunch.scenelessCalls(ios: p.ios).dropLast())
    h.expectNotifications(["UIApplication.didFinishLaunchingNotification"] + (p.scenes ? Array(StandardLaunch.sceneNotifications[1...3]) : []))
    h.expectSystem(StandardLaunch.system(h.sim.profile)
      + ["terminated crash: NSInternalInconsistencyException: All launch handlers must be registered before application finishes launching"])
  }

  @Test("registering an identifier twice crashes; an undeclared one returns false; both inside didFinishLaunching (S112, D2)")
  func duplicateAndUndeclared() throws {
    let app = ScriptedApp(layout: AppLayout(name: "Feed", roots: ["NoteList"], container: .navigation, bgTaskIdentifiers: [BG.refresh]))
    app.handlers["didFinishLaunchingWithOptions"] = { sim in
      let answers = [try sim.appRegister("com.example.undeclared"), try sim.appRegister(BG.refresh)]
      #expect(answers == [false, true])
      try sim.appRegister(BG.refresh)
    }
    let h = Harness(ios: 17, scenes: true, app: app)
    try h.perform(.launch(url: nil))
    h.expectCalls([AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)"])
    h.expectNotifications([])
    h.expectSystem(["started foreground, background",
                    "terminated crash: NSInternalInconsistencyException: Launch handler for task with identifier com.example.refresh has already been registered"])
    #expect(h.sim.state.terminations.last?.reason == .crash)
  }

  @Test("submit: notPermitted for an undeclared id, a replacement for the same id, tooManyPendingTaskRequests past one refresh, unavailable with Background App Refresh off, a crash with no launch handler (S113, D2)")
  func submitAnswers() throws {
    var answers: [BGTaskSubmitResult?] = []
    let app = ScriptedApp(layout: AppLayout(name: "Feed", roots: ["NoteList"], container: .navigation,
                                            bgTaskIdentifiers: [BG.refresh, BG.cleanup, "com.example.other", "com.example.unregistered"]))
    app.handlers["didFinishLaunchingWithOptions"] = { sim in
      for id in [BG.refresh, BG.cleanup, "com.example.other"] { try sim.appRegister(id) }
      answers.append(try sim.appSubmit(BGTaskRequest(identifier: "com.example.undeclared", kind: .refresh)))
      answers.append(try sim.appSubmit(BGTaskRequest(identifier: BG.refresh, kind: .refresh)))
      answers.append(try sim.appSubmit(BGTaskRequest(identifier: BG.refresh, kind: .refresh, earliestBeginUs: 60_000_000)))
      answers.append(try sim.appSubmit(BGTaskRequest(identifier: "com.example.other", kind: .refresh)))
      answers.append(try sim.appSubmit(BGTaskRequest(identifier: BG.cleanup, kind: .processing)))
      try sim.appSubmit(BGTaskRequest(identifier: "com.example.unregistered", kind: .processing))
    }
    let h = Harness(ios: 17, scenes: true, app: app)
    try h.perform(.launch(url: nil))
    #expect(answers == [.notPermitted, .pending, .pending, .tooManyPendingTaskRequests, .pending])
    h.expectCalls([AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)"])
    h.expectNotifications([])
    h.expectSystem(["started foreground, background",
                    "terminated crash: NSInternalInconsistencyException: No launch handler registered for task with identifier com.example.unregistered"])
    // The requests outlive the crash: one refresh (the replacement, due at 60 s) and one processing.
    #expect(h.sim.state.backgroundWork.pending.map(\.request.identifier) == [BG.refresh, BG.cleanup])
    #expect(h.sim.state.backgroundWork.pending.first?.dueAt == 60_000_000)

    let denied = Harness(ios: 17, scenes: true, app: BG.app(), knobs: { $0.backgroundRefreshStatus = .denied })
    denied.app.handlers["sceneDidBecomeActive"] = { sim in answers = [try sim.appSubmit(BGTaskRequest(identifier: BG.refresh, kind: .refresh))] }
    try denied.launch()
    #expect(answers == [.unavailable] && denied.sim.state.backgroundWork.pending.isEmpty)
  }
}

@Suite struct BGTaskExpiryTests {
  @Test("a refresh task's expiration handler runs 5 s before its 30 s; completing there ends it cleanly, suspended, no kill (S115, S116, S120)",
        arguments: BG.platforms)
  func expirationCompletes(_ p: PlatformUnderTest) throws {
    let app = BG.app { sim in try sim.work(us: 1_000_000) }
    app.handlers["BGTask.expirationHandler"] = { sim in try sim.appSetTaskCompleted(BG.refresh, false) }
    let h = try launchedAndHome(p, app)
    let startedAt = h.sim.clock
    try h.perform(.bgTask(BG.refresh))
    h.expectCalls([BG.launchHandler(BG.refresh)])
    h.expectSystem(["resumed"])
    try h.perform(.advance(us: 60_000_000))
    h.expectCalls([BG.expiration(BG.refresh)])
    h.expectSystem(["suspended"])
    #expect(h.allEvents.last { if case .callbackDelivered = $0.body { return true } else { return false } }?.t == startedAt + 25_000_000)
  }

  @Test("expiry with no expirationHandler set: the task is marked complete, unsuccessful, with a note; no kill (S115)",
        arguments: BG.platforms)
  func noExpirationHandler(_ p: PlatformUnderTest) throws {
    let h = try launchedAndHome(p, BG.app())
    try h.perform(.bgTask(BG.refresh), .advance(us: 60_000_000))
    h.expectCalls([BG.launchHandler(BG.refresh), BG.expiration(BG.refresh)])
    h.expectSystem(["resumed",
                    "note bgTaskExpiredUnhandled: BGAppRefreshTask \"com.example.refresh\" expired with no expirationHandler set: it is marked complete, unsuccessful",
                    "suspended"])
  }

  @Test("an expiration handler that does not complete the task: killed 1 s later, background_task_expired 0x2182bad2 (S115, S27)",
        arguments: BG.platforms)
  func graceKill(_ p: PlatformUnderTest) throws {
    let app = BG.app()
    app.handlers["BGTask.expirationHandler"] = { _ in }
    let h = try launchedAndHome(p, app)
    let startedAt = h.sim.clock
    try h.perform(.bgTask(BG.refresh), .advance(us: 60_000_000))
    h.expectCalls([BG.launchHandler(BG.refresh), BG.expiration(BG.refresh)])
    h.expectSystem(["resumed", "terminated background_task_expired 0x2182bad2: BGAppRefreshTask \"com.example.refresh\" was not completed: setTaskCompleted(success:) was not called within 1.00 seconds of its expiration"])
    #expect(h.allEvents.last?.t == startedAt + 26_000_000)
  }

  @Test("a refresh task outlives the user's launch; its expiration handler runs off the main thread, so 12 s of work there in the foreground trips no hang watchdog (D2, S116)")
  func expirationInForeground() throws {
    let app = BG.app()
    app.handlers["BGTask.expirationHandler"] = { sim in
      try sim.work(us: 12_000_000)
      try sim.appSetTaskCompleted(BG.refresh, false)
    }
    let h = try launchedAndHome(PlatformUnderTest(ios: 17, scenes: true), app)
    try h.perform(.bgTask(BG.refresh), .launch(url: nil))
    h.expectCalls([BG.launchHandler(BG.refresh), SD + "sceneWillEnterForeground(_:)", SD + "sceneDidBecomeActive(_:)"])
    h.expectNotifications(Posted.back(scenes: true))
    h.expectSystem(["resumed"])
    try h.perform(.advance(us: 40_000_000))
    h.expectCalls([BG.expiration(BG.refresh)])
    h.expectSystem([])
    #expect(h.sim.state.appState == .active && h.sim.state.backgroundWork.running.isEmpty)
  }

  @Test("a processing task gets 300 s with external power; launch() ends it at once: its expiration handler before the foreground sequence (S114, W1)",
        arguments: BG.platforms)
  func processingEndsAtLaunch(_ p: PlatformUnderTest) throws {
    let app = BG.app()
    app.handlers["BGTask.expirationHandler"] = { sim in try sim.appSetTaskCompleted(BG.cleanup, false) }
    let h = try launchedAndHome(p, app, request: BGTaskRequest(identifier: BG.cleanup, kind: .processing, requiresExternalPower: true))
    try h.perform(.power(true), .bgTask(BG.cleanup), .advance(us: 290_000_000))
    h.expectCalls([BG.launchHandler(BG.cleanup)])
    h.expectSystem(["resumed"])
    try h.perform(.launch(url: nil))
    h.expectCalls([BG.expiration(BG.cleanup)] + (p.scenes ? [SD + "sceneWillEnterForeground(_:)", SD + "sceneDidBecomeActive(_:)"]
                                                          : [AD + "applicationWillEnterForeground(_:)", AD + "applicationDidBecomeActive(_:)"]))
    h.expectNotifications(Posted.back(scenes: p.scenes))
    h.expectSystem([])
  }
}

@Suite struct BGTaskForceQuitTests {
  @Test("after a force quit a refresh request waits for the user (a note); a processing request still runs, unless knob processingRunsAfterForceQuit is false (F111, W2, F110)",
        arguments: [true, false])
  func forceQuit(processingRuns: Bool) throws {
    let app = BG.app { sim in
      let id = sim.state.backgroundWork.running.last?.identifier ?? ""
      try sim.appSetTaskCompleted(id, true)
    }
    app.handlers["sceneDidEnterBackground"] = { sim in
      try sim.appSubmit(BGTaskRequest(identifier: BG.refresh, kind: .refresh))
      try sim.appSubmit(BGTaskRequest(identifier: BG.cleanup, kind: .processing))
    }
    let h = try PlatformUnderTest(ios: 17, scenes: true).launched(app: app, knobs: { $0.processingRunsAfterForceQuit = processingRuns })
    try h.perform(.home, .appSwitcher, .forceQuit)
    h.expectHome(system: ["suspended", "terminated user: force quit from the app switcher while suspended"])
    try h.perform(.bgTask(BG.refresh))
    h.expectSystem(["note bgTaskHeld: the user force quit the app: the refresh task \"com.example.refresh\" waits until the user opens it again"])
    try h.perform(.bgTask(BG.cleanup))
    if processingRuns {
      h.expectCalls(BG.backgroundLaunch(PlatformUnderTest(ios: 17, scenes: true), discarded: true) + [BG.launchHandler(BG.cleanup)])
      h.expectNotifications(["UIApplication.didFinishLaunchingNotification"])
      h.expectSystem(["started background, background", "suspended"])
    } else {
      h.expectSystem(["note bgTaskHeld: the user force quit the app: the processing task \"com.example.cleanup\" waits until the user opens it again"])
    }
    #expect(h.sim.state.backgroundWork.pending.map(\.request.identifier) == (processingRuns ? [BG.refresh] : [BG.refresh, BG.cleanup]))
  }
}

@Suite struct BackgroundFetchFromIOS13Tests {
  @Test("background fetch: on iOS 13 and later a fetch handler gets one deprecation note; on iOS 12 none (S119, S3)",
        arguments: [PlatformUnderTest(ios: 12, scenes: false), PlatformUnderTest(ios: 13, scenes: true), PlatformUnderTest(ios: 17, scenes: false)])
  func deprecationNote(_ p: PlatformUnderTest) throws {
    let app = ScriptedApp()
    app.handlers["performFetchWithCompletionHandler"] = { sim in try sim.complete(1) }
    let h = Harness(ios: p.ios, scenes: p.scenes, app: app)
    try h.perform(.backgroundLaunch(.fetch))
    h.expectCalls(BG.backgroundLaunch(p) + [AD + "application(_:performFetchWithCompletionHandler:)"])
    h.expectNotifications(BG.backgroundLaunchNotifications(p))
    h.expectSystem(BG.backgroundLaunchSystem(p)
      + (p.ios >= 13 ? [BG.fetchDeprecatedNote] : [])
      + ["suspended"])
  }

  @Test("an app that declares bgTaskIdentifiers gets no background fetch from iOS 13: a note, no process (S118)",
        arguments: [PlatformUnderTest(ios: 13, scenes: true), PlatformUnderTest(ios: 26, scenes: false)])
  func fetchWithheld(_ p: PlatformUnderTest) throws {
    let app = BG.app()
    app.handlers["performFetchWithCompletionHandler"] = { sim in try sim.complete(1) }
    let h = Harness(ios: p.ios, scenes: p.scenes, app: app)
    try h.perform(.backgroundLaunch(.fetch))
    h.expectSystem(["note fetchNotDelivered: the app declares bgTaskIdentifiers (BGTaskSchedulerPermittedIdentifiers): iOS 13 and later deliver it no background fetch"])
    #expect(h.sim.state.process == .notRunning && app.processes == 0)
  }
}
