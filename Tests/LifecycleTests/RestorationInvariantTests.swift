import JSON
import Testing
import TestSupport
@testable import Lifecycle

/// Seeded random runs of apps that use state restoration (docs/model.md §17), each checked
/// against the restoration rules an iOS engineer relies on. The checker follows the callbacks
/// and what the app returned, not the model's restoration events, so it is a second opinion.
@Suite struct RestorationInvariantTests {
  typealias Rng = SplitMix64

  private static let activity = JSONValue.object([("activityType", .string("com.example.article"))])

  /// An app that saves an activity (or nil), opts into view-controller restoration with one
  /// pair, identifies some controllers, and sometimes blocks in a restoration callback.
  private static func randomApp(_ rng: inout Rng) -> ScriptedApp {
    let app = ScriptedApp()
    if rng.below(4) != 0 { app.returns["stateRestorationActivity"] = activity }
    else { app.handlers["stateRestorationActivity"] = { _ in } }
    let prefix = rng.below(2) == 0 ? "Secure" : ""
    app.returns["shouldSave\(prefix)ApplicationState"] = .bool(rng.below(4) != 0)
    app.returns["shouldRestore\(prefix)ApplicationState"] = .bool(rng.below(4) != 0)
    app.returns["willEncodeRestorableStateWith"] = .object([("v", .int(1))])
    app.returns["encodeRestorableState"] = .object([("x", .int(2))])
    for cls in ["NoteList", "Detail", "Sheet"] where rng.below(3) != 0 { app.restorationIdentifiers[cls] = cls.lowercased() }
    if rng.below(6) == 0 { app.handlers["decodeRestorableState"] = { sim in try sim.work(us: 21_000_000) } }
    if rng.below(8) == 0 { app.handlers["sceneDidEnterBackground"] = { sim in try sim.work(us: 6_000_000) } }
    return app
  }

  /// The restoration rules, checked on one run's events; the first broken one, if any.
  static func check(_ events: [Event], profile: Profile) -> String? {
    var s = LifecycleState()
    var saved: JSONValue?           // the activity the scene delegate last returned
    var archive = false             // a should-save returned true since the archive was last lost
    var forceQuitPending = false     // a force quit since the last scene connection
    var hadSession = false           // a scene session existed when this process started
    var lastTermination: TerminationReason?
    var systemEndedScene = false    // the system (not the user) ended the process or disconnected the scene since
    var launchPhase = 0             // 0: none, 1: after willFinish, 2: after didFinish
    var launchUnfinished = false    // a foreground launch has not reached didBecomeActive
    var configuredThisLaunch = false
    var previous: Callback?         // the previous depth-0 callback
    var pendingRequest = false      // stateRestorationActivity asked, sceneDidEnterBackground not yet
    var askedSinceBackground = 0
    var interactionsThisConnection = 0
    for (i, e) in events.enumerated() {
      let at = "event \(i + 1)"
      switch e.body {
      case let .inputPerformed(input, _):
        if case .disconnectScene = input { systemEndedScene = true }
        if input == .forceQuit, s.process != .notRunning {
          if !profile.forceQuitKeepsRestoration { saved = nil }
          if !profile.legacyArchiveSurvivesForceQuit { archive = false }
          forceQuitPending = true
        }
      case let .processStarted(mode, _):
        launchPhase = 0
        launchUnfinished = mode == .foreground
        hadSession = !s.sessions.isEmpty
        configuredThisLaunch = false
      case let .terminated(t):
        if launchUnfinished { archive = false }
        lastTermination = t.reason
        systemEndedScene = t.reason != .user || profile.forceQuitKeepsRestoration
        launchUnfinished = false
        pendingRequest = false
      case .crashed:
        if launchUnfinished { archive = false }
        lastTermination = .crash
        systemEndedScene = true
        launchUnfinished = false
        pendingRequest = false
      case .sceneConnected:
        interactionsThisConnection = 0
      case let .returned(name, _, _, depth, value) where depth == 0:
        if name == Callback.stateRestorationActivity.signature { saved = value }
        if name == Callback.shouldSaveSecureApplicationState.signature || name == Callback.shouldSaveApplicationState.signature,
           value == .bool(true) { archive = true }
      case let .callbackDelivered(cb, _, _, depth, arguments) where depth == 0:
        if pendingRequest, cb != .sceneDidEnterBackground {
          return "\(at): \(cb.key) between stateRestorationActivity(for:) and sceneDidEnterBackground"
        }
        switch cb {
        case .willFinishLaunchingWithOptions: launchPhase = 1
        case .didFinishLaunchingWithOptions: launchPhase = 2
        case .configurationForConnecting: configuredThisLaunch = true
        case .applicationDidBecomeActive, .sceneDidBecomeActive: launchUnfinished = false
        case .stateRestorationActivity:
          askedSinceBackground += 1
          if askedSinceBackground > 1 { return "\(at): stateRestorationActivity(for:) twice in one move to the background" }
          if !s.isForeground { return "\(at): stateRestorationActivity(for:) for a scene not in the foreground" }
          pendingRequest = true
        case .sceneDidEnterBackground:
          pendingRequest = false
          askedSinceBackground = 0
        case .willConnectTo:
          let given = arguments.payload?["session"]?["stateRestorationActivity"]
          if given != saved { return "\(at): willConnectTo's session has \(given?.canonicalText ?? "nil"), the app saved \(saved?.canonicalText ?? "nil")" }
          if given != nil, !systemEndedScene {
            return "\(at): restoration data without a system termination or disconnection before"
          }
          if forceQuitPending, !configuredThisLaunch { return "\(at): willConnectTo after a force quit without configurationForConnecting" }
          if lastTermination == .jetsam, !forceQuitPending, hadSession, configuredThisLaunch {
            return "\(at): configurationForConnecting for a session that survived jetsam"
          }
          forceQuitPending = false
        case .restoreInteractionStateWith:
          interactionsThisConnection += 1
          if interactionsThisConnection > 1 { return "\(at): restoreInteractionStateWith twice in one connection" }
          if profile.ios < profile.restoreInteractionMinIOS { return "\(at): restoreInteractionStateWith before iOS \(profile.restoreInteractionMinIOS)" }
          if previous != .sceneWillEnterForeground { return "\(at): restoreInteractionStateWith not right after sceneWillEnterForeground" }
          if arguments.payload?["activity"] == .null, !profile.restoreInteractionWhenNil { return "\(at): restoreInteractionStateWith without an activity" }
        case .shouldRestoreSecureApplicationState, .shouldRestoreApplicationState, .didDecodeRestorableStateWith:
          if launchPhase != 1 { return "\(at): \(cb.key) outside willFinish … didFinish" }
          if !archive { return "\(at): \(cb.key) with no archive" }
          if lastTermination == .user, !profile.legacyArchiveSurvivesForceQuit { return "\(at): restoration after a force quit" }
        default:
          break
        }
        if previous == .restoreInteractionStateWith, cb != .sceneDidBecomeActive {
          return "\(at): \(cb.key) after restoreInteractionStateWith instead of sceneDidBecomeActive"
        }
        previous = cb
      default:
        break
      }
      s.evolve(e)
    }
    return nil
  }

  @Test("2,000 random runs of restoring apps keep the restoration rules and replay exactly")
  func randomRuns() throws {
    var restoredScene = 0, restoredControllers = 0, interactions = 0
    for seed in UInt64(1)...2_000 {
      var rng = Rng(seed: seed)
      let ios = [12, 13, 14, 15, 17, 26][rng.below(6)]
      let scenes = ios >= 13 && rng.below(2) == 0
      let h = Harness(ios: ios, scenes: scenes, app: Self.randomApp(&rng))
      for _ in 0..<80 {
        do { try h.sim.perform(InvariantTests.randomInput(&rng, h.sim.state, on: h.sim.profile)) } catch {}
      }
      if let broken = Self.check(h.allEvents, profile: h.sim.profile) {
        Issue.record(Comment(rawValue: "seed \(seed) (iOS \(ios), scenes \(scenes)): \(broken)"))
        return
      }
      #expect(try h.replayMatches(), "seed \(seed): replay differs")
      h.skipRemainingEvents()  // the rules above examined every event; no sequence is pinned here
      for e in h.allEvents {
        switch e.body {
        case let .callbackDelivered(.willConnectTo, _, _, _, arguments) where arguments.payload != nil: restoredScene += 1
        case .callbackDelivered(.decodeRestorableState, _, _, _, _): restoredControllers += 1
        case .callbackDelivered(.restoreInteractionStateWith, _, _, _, _): interactions += 1
        default: break
        }
      }
    }
    // The runs really restore, in every form, so the rules were exercised.
    #expect(restoredScene > 50 && restoredControllers > 25 && interactions > 25, "\(restoredScene) \(restoredControllers) \(interactions)")
  }

  @Test("the restoration checker catches a broken rule")
  func checkerIsNotVacuous() {
    func callback(_ cb: Callback, payload: JSONValue? = nil) -> EventBody {
      .callbackDelivered(cb, target: cb.receiver == .appDelegate ? "AppDelegate" : "SceneDelegate", handled: true, depth: 0,
                arguments: CallbackArguments(payload: payload))
    }
    let profile = Profile(ios: 17)
    let firstLaunchWithActivity: [Event] = [
      Event(t: 0, .processStarted(mode: .foreground, state: .background)),
      Event(t: 0, callback(.willConnectTo, payload: .object([("session", .object([("stateRestorationActivity", Self.activity)]))]))),
    ]
    #expect(Self.check(firstLaunchWithActivity, profile: profile)
            == "event 2: willConnectTo's session has {\"activityType\":\"com.example.article\"}, the app saved nil")
    let restoreAfterDidFinish: [Event] = [
      Event(t: 0, .processStarted(mode: .foreground, state: .inactive)),
      Event(t: 0, callback(.willFinishLaunchingWithOptions)),
      Event(t: 0, callback(.didFinishLaunchingWithOptions)),
      Event(t: 0, callback(.shouldRestoreSecureApplicationState)),
    ]
    #expect(Self.check(restoreAfterDidFinish, profile: profile) == "event 4: shouldRestoreSecureApplicationState outside willFinish … didFinish")
    let interactionOn14: [Event] = [
      Event(t: 0, .processStarted(mode: .foreground, state: .background)),
      Event(t: 0, callback(.sceneWillEnterForeground)),
      Event(t: 0, callback(.restoreInteractionStateWith, payload: .object([("activity", Self.activity)]))),
    ]
    #expect(Self.check(interactionOn14, profile: Profile(ios: 14)) == "event 3: restoreInteractionStateWith before iOS 15")
  }
}
