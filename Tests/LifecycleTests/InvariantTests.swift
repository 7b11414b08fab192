import JSON
import Testing
import TestSupport
@testable import Lifecycle
import LifecycleLog

/// Thousands of seeded random runs (legal moves only), each checked against the rules an
/// iOS engineer relies on (docs/model.md §3 and §8, Apple's appearance diagram), against replay,
/// and against the clock. A failure prints the seed that reproduces it.
extension SplitMix64 {
  /// A whole number of tenths of a second from 0 to `max` seconds, in µs.
  mutating func seconds(_ max: Int) -> Int64 { Int64(below(max * 10 + 1)) * 100_000 }
}

@Suite struct InvariantTests {
  typealias Rng = SplitMix64

  private static func randomApp(_ rng: inout Rng) -> ScriptedApp {
    let app = ScriptedApp()
    let bg = rng.below(5), launchWork = rng.below(8) == 0 ? rng.seconds(25) : 0
    let save: ScriptedApp.Handler = { sim in
      switch bg {
      case 1:
        let id = try sim.beginBackgroundTask(name: "save")
        try sim.work(us: 300_000)
        try sim.endBackgroundTask(id)
      case 2:
        let id = try sim.beginBackgroundTask(name: "leak")
        app.expirations[id] = { _ in }
      case 3:
        let id = try sim.beginBackgroundTask(name: "expiring")
        app.expirations[id] = { sim in try sim.endBackgroundTask(id) }
      case 4: try sim.work(us: 6_000_000)
      default: break
      }
    }
    app.handlers["applicationDidEnterBackground"] = save
    app.handlers["sceneDidEnterBackground"] = save
    if launchWork > 0 { app.handlers["didFinishLaunchingWithOptions"] = { sim in try sim.work(us: launchWork) } }
    app.handlers["performFetchWithCompletionHandler"] = { sim in
      if bg != 2, let c = sim.state.completions.last { try sim.complete(c.id) }
    }
    if rng.below(4) == 0 {
      app.handlers["Detail.viewDidAppear"] = { sim in try sim.work(us: 11_000_000) }
    }
    SystemEndingsRules.equip(app, &rng)
    app.actions["Detail"] = [
      "tap": { sim in try sim.store(key: "tapped", value: .bool(true)) },
      "sync": { sim in try sim.work(us: 11_000_000) },
    ]
    OpeningInvariants.equip(app, &rng, completes: bg != 2)
    if rng.below(2) == 0 { usesBackgroundWork(app, &rng) }
    return app
  }

  /// BGTaskScheduler and a background session, used as a real app would or carelessly:
  /// requests submitted and a transfer started at each entry to the background, launch
  /// handlers that complete the task, leave it to expire, or expire without completing it.
  private static func usesBackgroundWork(_ app: ScriptedApp, _ rng: inout Rng) {
    app.layout.bgTaskIdentifiers = [BG.refresh, BG.cleanup]
    let launchWork = app.handlers["didFinishLaunchingWithOptions"]
    app.handlers["didFinishLaunchingWithOptions"] = { sim in
      try launchWork?(sim)
      if sim.profile.bgTaskScheduler { try sim.appRegister(BG.refresh); try sim.appRegister(BG.cleanup) }
    }
    let plugged = rng.below(2) == 0, earliestUs = rng.seconds(20), ending = rng.below(3)
    for key in ["applicationDidEnterBackground", "sceneDidEnterBackground"] {
      let save = app.handlers[key]
      app.handlers[key] = { sim in
        try save?(sim)
        if sim.profile.bgTaskScheduler {
          try sim.appSubmit(BGTaskRequest(identifier: BG.refresh, kind: .refresh, earliestBeginUs: earliestUs))
          try sim.appSubmit(BGTaskRequest(identifier: BG.cleanup, kind: .processing, requiresExternalPower: plugged))
        }
        try sim.appTransfer("com.example.images", us: earliestUs)
      }
    }
    app.handlers["launchHandler"] = { sim in
      if ending == 0, let task = sim.state.backgroundWork.running.last { try sim.appSetTaskCompleted(task.identifier, true) }
    }
    if ending == 1 {
      app.handlers["BGTask.expirationHandler"] = { sim in
        if let task = sim.state.backgroundWork.running.first(where: { $0.expiredAt != nil }) {
          try sim.appSetTaskCompleted(task.identifier, false)
        }
      }
    }
    usesContinuedTasks(app, &rng)
    var completion: Int?
    app.handlers["handleEventsForBackgroundURLSession"] = { sim in completion = sim.state.completions.last?.id }
    app.handlers["didFinishEvents"] = { sim in if ending != 2, let completion { try sim.complete(completion) } }
  }

  /// From iOS 26, the app starts an export as the user comes back: a continued task under a
  /// wildcard identifier, registered just before its submit, queued or refused while another runs
  /// (so `cancel_task`, the no-progress expiry and the swipe have a task to act on).
  private static func usesContinuedTasks(_ app: ScriptedApp, _ rng: inout Rng) {
    app.layout.bgTaskIdentifiers.append("com.example.export.*")
    let strategy: ContinuedStrategy = rng.below(2) == 0 ? .queue : .fail
    var exports = 0
    for key in ["applicationDidBecomeActive", "sceneDidBecomeActive"] {
      let earlier = app.handlers[key]
      app.handlers[key] = { sim in
        try earlier?(sim)
        guard sim.profile.continuedProcessingTasks else { return }
        exports += 1
        let id = "com.example.export.\(exports)"
        try sim.appRegister(id)
        try sim.appSubmit(BGTaskRequest(identifier: id, kind: .continued,
                                        continued: ContinuedRequest(title: "Export", subtitle: "\(exports)", strategy: strategy)))
      }
    }
  }

  /// A verb drawn from the verb table for the device (so a new verb is fuzzed as soon as it is declared), then
  /// one of its inputs over the scripted app's controllers, three tabs, a URL and up to 40 s.
  /// `bg_task` and `transfer_done` take the pending requests and the transfers' sessions (as
  /// `InputRules.legalInputs` does), and one the app never used, which is refused.
  static func randomInput(_ rng: inout Rng, _ state: LifecycleState, on profile: Profile) -> Input {
    let verbs = VerbSpec.drawn(on: profile)
    let spec = verbs[rng.below(verbs.count)]
    let work = state.backgroundWork
    // The connected scenes, as explore offers them (and one more, which is refused).
    let connected = state.scenes.compactMap { InstanceLabel.number($0.label) }.sorted()
    var domain = ArgumentDomain(controllers: ["Detail", "Sheet"], tabs: 3, urls: ["notes://1"],
                                durationsUs: [rng.seconds(40)], scenes: connected.isEmpty ? [1] : connected + [(connected.last ?? 0) + 1],
                                actions: ActionCatalog(byController: ["Detail": ["sync", "tap"]]),
                                bgTaskRequests: work.pending.map(\.request.identifier) + ["com.example.never"],
                                transferSessions: work.transfers.map(\.session) + ["com.example.never"])
    domain.continuedTasks = work.cancellableContinued + ["com.example.never"]
    let inputs = spec.candidates(domain)
    return inputs[rng.below(inputs.count)]
  }

  /// Every rule, checked on one run's events. Returns the first broken rule, if any.
  static func check(_ events: [Event], scenes: Bool) -> String? {
    var s = LifecycleState()
    var endings = SystemEndingsRules()
    var lastT: Int64 = 0
    var loaded: Set<String> = []
    var lastForeground: Callback?     // the latest of willResignActive / didBecomeActive in this process
    var pendingWillEnterForeground = false
    var sinceLaunch: [Callback]?      // callbacks of a foreground cold launch until its first didBecomeActive
    let resign: Callback = scenes ? .sceneWillResignActive : .applicationWillResignActive
    let active: Callback = scenes ? .sceneDidBecomeActive : .applicationDidBecomeActive
    let enterBG: Callback = scenes ? .sceneDidEnterBackground : .applicationDidEnterBackground
    let enterFG: Callback = scenes ? .sceneWillEnterForeground : .applicationWillEnterForeground
    var forceQuitBeforeUserLaunch = false  // the user force quit the app and has not opened it since
    var didFinishReturned = false          // this process's didFinishLaunching has returned
    var systemVerb: String?                // the latest input, when the system (not the user) made it
    for (i, e) in events.enumerated() {
      let at = "event \(i + 1)"
      if e.t < lastT { return "\(at): time went backwards" }
      lastT = e.t
      switch e.body {
      case let .inputPerformed(input, _):
        switch input.verb {
        case "bg_task", "transfer_done", "power", "advance": systemVerb = input.verb
        default: systemVerb = nil
        }
        if case .forceQuit = input { forceQuitBeforeUserLaunch = true }
        if case .launch = input { forceQuitBeforeUserLaunch = false }
        if case .openURL = input { forceQuitBeforeUserLaunch = false }
        // The user opens the app from a quick action, a link, a handoff or a notification's tap too.
        switch input {
        case .quickAction, .universalLink, .handoff: forceQuitBeforeUserLaunch = false
        case .tapNotification where input.userTakesDevice: forceQuitBeforeUserLaunch = false
        default: break
        }
      case let .notificationPosted(name, _, _):
        if name == "UIApplication.didFinishLaunchingNotification" { didFinishReturned = true }
      case let .sceneConnected(scene, _):
        if let systemVerb { return "\(at): \(scene) connected during \(systemVerb), before the user's launch" }
      case let .processStarted(mode, _):
        didFinishReturned = false
        lastForeground = nil
        if pendingWillEnterForeground { return "\(at): willEnterForeground was never followed by didBecomeActive" }
        sinceLaunch = mode == .foreground ? [] : nil
      case .terminated, .crashed:
        pendingWillEnterForeground = false
      case let .callbackDelivered(cb, target, _, _, arguments):
        if s.process != .running { return "\(at): \(cb.key) delivered to a \(s.process.rawValue) app" }
        let appearance: [Callback] = [.viewWillAppear, .viewIsAppearing, .viewDidAppear, .viewWillDisappear, .viewDidDisappear]
        if appearance.contains(cb) != (arguments.animated != nil) {
          return "\(at): \(target).\(cb.key) \(arguments.animated == nil ? "without its" : "with an") animated argument"
        }
        if cb == .launchHandler {
          if !didFinishReturned { return "\(at): \(target) launch handler before didFinishLaunching returned" }
          // A continued task starts inside its submit, which only the foreground may make.
          let kind = arguments.payload?["kind"]?.stringValue
          if s.isForeground, kind != BGTaskKind.continued.rawValue { return "\(at): \(target) launch handler while the app is in the foreground" }
          if forceQuitBeforeUserLaunch, arguments.payload?["kind"]?.stringValue == BGTaskKind.refresh.rawValue {
            return "\(at): \(target) refresh launch handler after a force quit, before the user opened the app"
          }
          // One started in the foreground was submitted by the user's app just now; one started
          // in the background would have outlived the force quit in the queue.
          if forceQuitBeforeUserLaunch, !s.isForeground, kind == BGTaskKind.continued.rawValue {
            return "\(at): \(target) continued task started after a force quit, before the user opened the app"
          }
        }
        if cb == .expirationHandler, s.backgroundWork.running.contains(where: { $0.kind == .continued && BGTaskLabel.task($0.identifier) == target }),
           !ContinuedExpiryCause.allCases.map(\.rawValue).contains(arguments.payload?["cause"]?.stringValue ?? "") {
          return "\(at): \(target) expired with no cause"
        }
        if cb == .viewDidLoad {
          if loaded.contains(target) { return "\(at): viewDidLoad twice for \(target)" }
          loaded.insert(target)
        }
        if cb.receiver == .viewController, let c = s.controller(target) {
          let ok: Bool
          switch cb {
          case .viewWillAppear: ok = c.appearance == .disappeared || c.appearance == .disappearing
          case .viewDidAppear: ok = c.appearance == .appearing
          case .viewWillDisappear: ok = c.appearance == .appeared || c.appearance == .appearing
          case .viewDidDisappear: ok = c.appearance == .disappearing
          default: ok = true
          }
          if !ok { return "\(at): \(target).\(cb.key) from \(c.appearance.rawValue)" }
        }
        if sinceLaunch != nil {
          if !scenes, cb == enterFG { return "\(at): \(cb.key) during a cold launch" }
          if cb == active { sinceLaunch = nil }
        }
        if cb == enterFG { pendingWillEnterForeground = true }
        if cb == active { pendingWillEnterForeground = false }
        if cb == enterBG, s.applicationState == .background, (s.frontScene?.activation ?? .unattached) != .unattached || !scenes,
           lastForeground != nil, lastForeground != resign {
          return "\(at): \(cb.key) from the foreground without \(resign.key) since \(active.key)"
        }
        if cb == resign || cb == active { lastForeground = cb }
        if cb == enterBG { lastForeground = nil }
        if cb == .applicationWillTerminate, s.process == .suspended { return "\(at): willTerminate for a suspended app" }
      default:
        break
      }
      if let broken = endings.check(e, before: s) { return "\(at): \(broken)" }
      s.evolve(e)
      let work = s.backgroundWork
      if forceQuitBeforeUserLaunch, s.process != .running,
         work.pending.contains(where: { $0.request.kind == .continued }) || work.running.contains(where: { $0.kind == .continued }) {
        return "\(at): a continued task outlived the force quit"
      }
    }
    return nil
  }

  @Test("5,000 random runs keep every rule and replay exactly")
  func randomRuns() throws {
    var reasons: Set<TerminationReason> = []
    var sawPush = false, sawSheet = false, sawExpiration = false, sawLaunchHandler = false, sawTransfer = false
    var sawEndings: Set<Callback> = []
    var openings: Set<String> = []
    var continuedCauses: Set<String> = []  // the causes of continued tasks' expiries seen
    var windowVerbs: Set<String> = []      // the iPad's window verbs performed (not refused)
    for seed in UInt64(1)...5_000 {
      var rng = Rng(seed: seed)
      let ios = [12, 13, 17, 26][rng.below(4)]
      let scenes = ios >= 13 && rng.below(3) != 0
      // One scene app in four is an iPad app with several windows, half of those on iPadOS 26's windowing.
      let ipad = scenes && seed % 4 == 0, windowing26 = ipad && ios >= 26 && seed % 8 == 0
      let h = Harness(ios: ios, scenes: scenes, app: Self.randomApp(&rng)) { profile in
        if ipad { profile.device = .ipad; profile.multipleScenes = true; profile.ipadWindowing26 = windowing26 }
      }
      var sceneRules = InvariantsOfScenes(), recorded = 0
      var brokenSceneRule: InvariantsOfScenes.Rule?
      for _ in 0..<40 {
        let input = Self.randomInput(&rng, h.sim.state, on: h.sim.profile)
        do { try h.sim.perform(input) } catch {}  // an illegal move is refused and recorded nowhere
        for e in h.allEvents[recorded...] { sceneRules.record(e) }
        recorded = h.allEvents.count
        brokenSceneRule = brokenSceneRule ?? sceneRules.check(after: h.sim.state)
      }
      if let rule = brokenSceneRule {
        Issue.record(Comment(rawValue: "seed \(seed) (iOS \(ios), iPad \(ipad)): \(rule.rawValue)"))
        return
      }
      if ipad { windowVerbs.formUnion(Self.windowVerbsPerformed(h.allEvents)) }
      if let broken = Self.check(h.allEvents, scenes: scenes) ?? OpeningInvariants.check(h.allEvents, scenes: scenes) {
        let n = Int(broken.split(separator: " ")[1].dropLast()) ?? h.allEvents.count
        let context: [String] = h.allEvents.enumerated().filter { $0.offset >= n - 12 && $0.offset < n }
          .map { e -> String in
            var w = CanonicalJSONWriter()
            e.element.canonicalBody(seq: Int64(e.offset + 1), into: &w)
            return w.text
          }
        let message = "seed \(seed) (iOS \(ios), scenes \(scenes)): \(broken)\n\(context.joined(separator: "\n"))"
        Issue.record(Comment(rawValue: message))
        return
      }
      #expect(try h.replayMatches(), "seed \(seed): replay differs")
      h.skipRemainingEvents()  // the rules above examined every event; no sequence is pinned here
      for t in h.sim.state.terminations { reasons.insert(t.reason) }
      openings.formUnion(OpeningInvariants.exercised(h.allEvents))
      for e in h.allEvents {
        switch e.body {
        case .pushed: sawPush = true
        case .presented: sawSheet = true
        case let .callbackDelivered(.expirationHandler, _, _, _, arguments):
          sawExpiration = true
          if let cause = arguments.payload?["cause"]?.stringValue { continuedCauses.insert(cause) }
        case .callbackDelivered(.sceneDidDisconnect, _, _, _, _), .callbackDelivered(.applicationSignificantTimeChange, _, _, _, _),
             .callbackDelivered(.applicationProtectedDataDidBecomeAvailable, _, _, _, _):
          if case let .callbackDelivered(cb, _, _, _, _) = e.body { sawEndings.insert(cb) }
        case .callbackDelivered(.launchHandler, _, _, _, _): sawLaunchHandler = true
        case .callbackDelivered(.handleEventsForBackgroundURLSession, _, _, _, _): sawTransfer = true
        default: break
        }
      }
    }
    // The runs reach every kind of kill and navigation, so the rules were really exercised.
    #expect(reasons == [.watchdog, .backgroundTaskExpired, .jetsam, .user, .suspendedWithLockedFile, .reboot])
    #expect(sawPush && sawSheet && sawExpiration && sawLaunchHandler && sawTransfer)
    #expect(sawEndings == [.sceneDidDisconnect, .applicationSignificantTimeChange, .applicationProtectedDataDidBecomeAvailable])
    #expect(openings == OpeningInvariants.all, "§15 cases never reached: \(OpeningInvariants.all.subtracting(openings).sorted())")
    #expect(continuedCauses == Set(ContinuedExpiryCause.allCases.map(\.rawValue)))
    #expect(windowVerbs == ["open_window", "close_window", "focus", "side_by_side", "drag_divider"])
  }

  /// The window verbs a run performed: an input is recorded only when it was not refused.
  private static func windowVerbsPerformed(_ events: [Event]) -> Set<String> {
    let names = Set(VerbSpec.windows.map(\.name))
    return Set(events.compactMap { e -> String? in
      if case let .inputPerformed(input, _) = e.body, names.contains(input.verb) { return input.verb }
      return nil
    })
  }

  @Test("the checker catches a broken rule")
  func checkerIsNotVacuous() {
    let bad: [Event] = [
      Event(t: 0, .processStarted(mode: .foreground, state: .inactive)),
      Event(t: 0, .callbackDelivered(.applicationWillEnterForeground, target: "AppDelegate", handled: false, depth: 0, arguments: CallbackArguments())),
    ]
    #expect(Self.check(bad, scenes: false) == "event 2: applicationWillEnterForeground during a cold launch")
    let suspended: [Event] = [
      Event(t: 0, .processStarted(mode: .background, state: .background)),
      Event(t: 0, .suspended),
      Event(t: 1, .callbackDelivered(.applicationWillTerminate, target: "AppDelegate", handled: false, depth: 0, arguments: CallbackArguments())),
    ]
    #expect(Self.check(suspended, scenes: false) == "event 3: applicationWillTerminate delivered to a suspended app")
    let refresh = CallbackArguments(payload: .object([("kind", .string("refresh"))]))
    let early: [Event] = [
      Event(t: 0, .processStarted(mode: .background, state: .background)),
      Event(t: 0, .callbackDelivered(.launchHandler, target: "BGTaskScheduler#r", handled: true, depth: 0, arguments: refresh)),
    ]
    #expect(Self.check(early, scenes: true) == "event 2: BGTaskScheduler#r launch handler before didFinishLaunching returned")
    let afterForceQuit: [Event] = [
      Event(t: 0, .inputPerformed(.forceQuit, at: nil)),
      Event(t: 0, .processStarted(mode: .background, state: .background)),
      Event(t: 0, .notificationPosted(name: "UIApplication.didFinishLaunchingNotification", handled: false, depth: 0)),
      Event(t: 0, .callbackDelivered(.launchHandler, target: "BGTaskScheduler#r", handled: true, depth: 0, arguments: refresh)),
    ]
    #expect(Self.check(afterForceQuit, scenes: true)
      == "event 4: BGTaskScheduler#r refresh launch handler after a force quit, before the user opened the app")
    let continued = CallbackArguments(payload: .object([("kind", .string(BGTaskKind.continued.rawValue))]))
    let continuedAfterForceQuit: [Event] = [
      Event(t: 0, .inputPerformed(.forceQuit, at: nil)),
      Event(t: 0, .processStarted(mode: .background, state: .background)),
      Event(t: 0, .notificationPosted(name: "UIApplication.didFinishLaunchingNotification", handled: false, depth: 0)),
      Event(t: 0, .callbackDelivered(.launchHandler, target: "BGTaskScheduler#x", handled: true, depth: 0, arguments: continued)),
    ]
    #expect(Self.check(continuedAfterForceQuit, scenes: true)
      == "event 4: BGTaskScheduler#x continued task started after a force quit, before the user opened the app")
    let sceneForTask: [Event] = [
      Event(t: 0, .inputPerformed(.bgTask("r"), at: nil)),
      Event(t: 0, .processStarted(mode: .background, state: .background)),
      Event(t: 0, .sceneConnected(scene: "Scene#1")),
    ]
    #expect(Self.check(sceneForTask, scenes: true) == "event 3: Scene#1 connected during bg_task, before the user's launch")
    let backwards = [Event(t: 5, .noted(name: "a", message: "")), Event(t: 4, .noted(name: "b", message: ""))]
    #expect(Self.check(backwards, scenes: false) == "event 2: time went backwards")
    func callback(_ cb: Callback, _ target: String) -> EventBody {
      .callbackDelivered(cb, target: target, handled: false, depth: 0, arguments: CallbackArguments())
    }
    let sceneAfterDisconnect: [Event] = [
      Event(t: 0, .processStarted(mode: .foreground, state: .background)), Event(t: 0, .sceneConnected(scene: "Scene#1")),
      Event(t: 0, callback(.sceneDidDisconnect, "SceneDelegate")), Event(t: 0, callback(.sceneWillEnterForeground, "SceneDelegate")),
    ]
    #expect(Self.check(sceneAfterDisconnect, scenes: true) == "event 4: sceneWillEnterForeground to Scene#1 after its sceneDidDisconnect")
    let readBeforeFirstUnlock: [Event] = [
      Event(t: 0, .inputPerformed(.reboot, at: nil)), Event(t: 0, .processStarted(mode: .background, state: .background)),
      Event(t: 0, .appCalled(.log(SystemEndingsRules.readPrefix + "\"s\""), at: nil)),
    ]
    #expect(Self.check(readBeforeFirstUnlock, scenes: true) == "event 3: secret (untilFirstUnlock) read before the first unlock")
    let lockedSuspension: [Event] = [
      Event(t: 0, .processStarted(mode: .background, state: .background)),
      Event(t: 0, .appCalled(.holdLock(name: "db", shared: true), at: nil)), Event(t: 0, .suspended),
    ]
    #expect(Self.check(lockedSuspension, scenes: false) == "event 3: suspended while holding the shared lock db")
  }
}
