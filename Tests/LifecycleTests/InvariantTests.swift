import EventStore
import Testing
import TestSupport
@testable import Lifecycle

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
    return app
  }

  /// A verb drawn from the verb table (so a new verb is fuzzed as soon as it is declared), then
  /// one of its inputs over the scripted app's controllers, three tabs, a URL and up to 40 s.
  static func randomInput(_ rng: inout Rng, scene: Int) -> Input {
    let spec = VerbSpec.all[rng.below(VerbSpec.all.count)]
    let domain = ArgumentDomain(controllers: ["Detail", "Sheet"], tabs: 3, urls: ["notes://1"],
                                durationsUs: [rng.seconds(40)], scenes: [scene])
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
    for (i, e) in events.enumerated() {
      let at = "event \(i + 1)"
      if e.t < lastT { return "\(at): time went backwards" }
      lastT = e.t
      switch e.body {
      case let .processStarted(mode, _):
        lastForeground = nil
        if pendingWillEnterForeground { return "\(at): willEnterForeground was never followed by didBecomeActive" }
        sinceLaunch = mode == .foreground ? [] : nil
      case .terminated, .crash:
        pendingWillEnterForeground = false
      case let .callback(cb, target, _, _, arguments):
        if s.process != .running { return "\(at): \(cb.key) delivered to a \(s.process.rawValue) app" }
        let appearance: [Callback] = [.viewWillAppear, .viewIsAppearing, .viewDidAppear, .viewWillDisappear, .viewDidDisappear]
        if appearance.contains(cb) != (arguments.animated != nil) {
          return "\(at): \(target).\(cb.key) \(arguments.animated == nil ? "without its" : "with an") animated argument"
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
        if cb == enterBG, s.applicationState == .background, s.sceneActivation != .unattached || !scenes,
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
    }
    return nil
  }

  @Test("5,000 random runs keep every rule and replay exactly")
  func randomRuns() throws {
    var reasons: Set<TerminationReason> = []
    var sawPush = false, sawSheet = false, sawExpiration = false
    var sawEndings: Set<Callback> = []
    for seed in UInt64(1)...5_000 {
      var rng = Rng(seed: seed)
      let ios = [12, 13, 17, 26][rng.below(4)]
      let scenes = ios >= 13 && rng.below(3) != 0
      let h = Harness(ios: ios, scenes: scenes, app: Self.randomApp(&rng))
      for _ in 0..<40 {
        let input = Self.randomInput(&rng, scene: h.sim.state.sceneLabel.flatMap(InstanceLabel.number) ?? 1)
        do { try h.sim.perform(input) } catch {}  // an illegal move is refused and recorded nowhere
      }
      if let broken = Self.check(h.allEvents, scenes: scenes) {
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
      for e in h.allEvents {
        switch e.body {
        case .pushed: sawPush = true
        case .presented: sawSheet = true
        case .callback(.expirationHandler, _, _, _, _): sawExpiration = true
        case .callback(.sceneDidDisconnect, _, _, _, _), .callback(.applicationSignificantTimeChange, _, _, _, _),
             .callback(.applicationProtectedDataDidBecomeAvailable, _, _, _, _):
          if case let .callback(cb, _, _, _, _) = e.body { sawEndings.insert(cb) }
        default: break
        }
      }
    }
    // The runs reach every kind of kill and navigation, so the rules were really exercised.
    #expect(reasons == [.watchdog, .backgroundTaskExpired, .jetsam, .user, .suspendedWithLockedFile, .reboot])
    #expect(sawPush && sawSheet && sawExpiration)
    #expect(sawEndings == [.sceneDidDisconnect, .applicationSignificantTimeChange, .applicationProtectedDataDidBecomeAvailable])
  }

  @Test("the checker catches a broken rule")
  func checkerIsNotVacuous() {
    let bad: [Event] = [
      Event(t: 0, .processStarted(mode: .foreground, state: .inactive)),
      Event(t: 0, .callback(.applicationWillEnterForeground, target: "AppDelegate", handled: false, depth: 0, arguments: CallbackArguments())),
    ]
    #expect(Self.check(bad, scenes: false) == "event 2: applicationWillEnterForeground during a cold launch")
    let suspended: [Event] = [
      Event(t: 0, .processStarted(mode: .background, state: .background)),
      Event(t: 0, .suspended),
      Event(t: 1, .callback(.applicationWillTerminate, target: "AppDelegate", handled: false, depth: 0, arguments: CallbackArguments())),
    ]
    #expect(Self.check(suspended, scenes: false) == "event 3: applicationWillTerminate delivered to a suspended app")
    let backwards = [Event(t: 5, .note(name: "a", message: "")), Event(t: 4, .note(name: "b", message: ""))]
    #expect(Self.check(backwards, scenes: false) == "event 2: time went backwards")
    func callback(_ cb: Callback, _ target: String) -> EventBody {
      .callback(cb, target: target, handled: false, depth: 0, arguments: CallbackArguments())
    }
    let sceneAfterDisconnect: [Event] = [
      Event(t: 0, .processStarted(mode: .foreground, state: .background)), Event(t: 0, .sceneConnected(scene: "Scene#1")),
      Event(t: 0, callback(.sceneDidDisconnect, "SceneDelegate")), Event(t: 0, callback(.sceneWillEnterForeground, "SceneDelegate")),
    ]
    #expect(Self.check(sceneAfterDisconnect, scenes: true) == "event 4: sceneWillEnterForeground to Scene#1 after its sceneDidDisconnect")
    let readBeforeFirstUnlock: [Event] = [
      Event(t: 0, .input(.reboot, at: nil)), Event(t: 0, .processStarted(mode: .background, state: .background)),
      Event(t: 0, .call(.log(SystemEndingsRules.readPrefix + "\"s\""), at: nil)),
    ]
    #expect(Self.check(readBeforeFirstUnlock, scenes: true) == "event 3: secret (untilFirstUnlock) read before the first unlock")
    let lockedSuspension: [Event] = [
      Event(t: 0, .processStarted(mode: .background, state: .background)),
      Event(t: 0, .call(.holdLock(name: "db", shared: true), at: nil)), Event(t: 0, .suspended),
    ]
    #expect(Self.check(lockedSuspension, scenes: false) == "event 3: suspended while holding the shared lock db")
  }
}
