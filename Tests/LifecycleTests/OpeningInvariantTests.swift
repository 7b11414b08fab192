import Testing
import TestSupport
@testable import Lifecycle

/// The rules of docs/model.md §15 that InvariantTests' random runs (which draw the new verbs
/// from the verb table) check on every run, and how its random app takes part in them.
enum OpeningInvariants {
  /// Gives the random app a notification delegate (mostly), a launch method that may return
  /// false, and handlers for the new delegate methods; `completes`: didReceive calls its completion.
  static func equip(_ app: ScriptedApp, _ rng: inout SplitMix64, completes: Bool) {
    let setsDelegate = rng.below(3) != 0
    let launchWork = app.handlers["didFinishLaunchingWithOptions"]
    app.handlers["didFinishLaunchingWithOptions"] = { sim in
      if setsDelegate { try sim.setNotificationDelegate() }
      try launchWork?(sim)
    }
    if rng.below(4) == 0 {
      app.returns[rng.below(2) == 0 ? "willFinishLaunchingWithOptions" : "didFinishLaunchingWithOptions"] = .bool(false)
    }
    app.handlers["didReceive"] = { sim in if completes { try sim.completeLatest() } }
    for key in ["willPresent", "performActionForShortcutItem", "willContinueUserActivityWithType", "continueUserActivity"] {
      app.handlers[key] = { _ in }
    }
  }

  /// What the random runs must reach for the rules below to have been exercised.
  static let all: Set<String> = ["didReceive in a tap", "didReceive in the background", "willPresent",
                                 "performActionFor", "continueUserActivity", "a launch method's false",
                                 "scene(_:continue:) after a Handoff launch"]

  /// The cases of `all` one run reached.
  static func exercised(_ events: [Event]) -> Set<String> {
    var out: Set<String> = []
    var input: Input?
    var handoffLaunch = false
    for e in events {
      switch e.body {
      case let .inputPerformed(i, _): input = i
      case let .returned(_, _, _, _, value) where value == .bool(false): out.insert("a launch method's false")
      case let .callbackDelivered(cb, _, handled, _, arguments):
        if cb == .willConnectTo, arguments.payload?["options"]?["handoffUserActivityType"] != nil { handoffLaunch = true }
        guard handled else { break }
        if cb == .didReceive {
          if case let .tapNotification(_, action, foreground) = input, action == Opening.defaultAction || foreground {
            out.insert("didReceive in a tap")
          } else {
            out.insert("didReceive in the background")
          }
        }
        if cb == .willPresent { out.insert("willPresent") }
        if cb == .performActionForShortcutItem || cb == .scenePerformActionForShortcutItem { out.insert("performActionFor") }
        if cb == .continueUserActivity || cb == .sceneContinueUserActivity { out.insert("continueUserActivity") }
        if cb == .sceneContinueUserActivity, handoffLaunch {
          handoffLaunch = false
          if case .handoff = input {} else { out.insert("scene(_:continue:) after a Handoff launch") }  // from the scheduler
        }
      default:
        break
      }
    }
    return out
  }

  /// The first broken rule in one run's events, if any:
  /// - a sceneless `performActionFor` or `continueUserActivity` never follows a `false` from
  ///   willFinish or didFinish in the same launch (the verb that launched the process);
  /// - with default knobs, the `didReceive` of a tap that opens an inactive or background app
  ///   falls between will-enter-foreground (a cold sceneless launch has none) and did-become-active.
  static func check(_ events: [Event], scenes: Bool) -> String? {
    var declinedThisLaunch = false
    var launching = false
    var openingTap = false
    var betweenForegroundAndActive = false
    let enterFG: Callback = scenes ? .sceneWillEnterForeground : .applicationWillEnterForeground
    let active: Callback = scenes ? .sceneDidBecomeActive : .applicationDidBecomeActive
    var s = LifecycleState()
    for (i, e) in events.enumerated() {
      let at = "event \(i + 1)"
      switch e.body {
      case let .inputPerformed(input, _):
        declinedThisLaunch = false  // a launch, and what its options carry, happens within one verb
        if case let .tapNotification(_, action, foreground) = input {
          openingTap = (action == Opening.defaultAction || foreground) && s.appState != .active
        } else {
          openingTap = false
        }
      case let .processStarted(mode, _):
        declinedThisLaunch = false
        launching = mode == .foreground
        betweenForegroundAndActive = false
      case .launchContinued:
        launching = true
      case let .returned(name, _, _, _, value):
        let launchMethods = [Callback.willFinishLaunchingWithOptions.signature, Callback.didFinishLaunchingWithOptions.signature]
        if launchMethods.contains(name), value == .bool(false) { declinedThisLaunch = true }
      case let .callbackDelivered(cb, target, _, _, _):
        if !scenes, declinedThisLaunch, cb == .performActionForShortcutItem || cb == .continueUserActivity {
          return "\(at): \(target).\(cb.key) after a false from the launch methods"
        }
        if cb == .didReceive, openingTap, !(betweenForegroundAndActive || (!scenes && launching)) {
          return "\(at): a tap's didReceive outside will-enter-foreground … did-become-active"
        }
        if cb == enterFG { betweenForegroundAndActive = true }
        if cb == active { betweenForegroundAndActive = false; launching = false; declinedThisLaunch = false }
      default:
        break
      }
      s.evolve(e)
    }
    return nil
  }
}

@Suite struct OpeningInvariantTests {
  @Test("the §15 checker catches a performActionFor after a false, and a didReceive after didBecomeActive")
  func checkerIsNotVacuous() {
    func callback(_ cb: Callback, _ target: String) -> EventBody {
      .callbackDelivered(cb, target: target, handled: true, depth: 0, arguments: CallbackArguments())
    }
    let declined: [Event] = [
      Event(t: 0, .processStarted(mode: .foreground, state: .inactive)),
      Event(t: 0, callback(.didFinishLaunchingWithOptions, "AppDelegate")),
      Event(t: 0, .returned(name: Callback.didFinishLaunchingWithOptions.signature, target: "AppDelegate", usedUs: 0, depth: 0,
                            value: .bool(false))),
      Event(t: 0, callback(.performActionForShortcutItem, "AppDelegate")),
    ]
    #expect(OpeningInvariants.check(declined, scenes: false) == "event 4: AppDelegate.performActionForShortcutItem after a false from the launch methods")
    let late: [Event] = [
      Event(t: 0, .processStarted(mode: .background, state: .background)),
      Event(t: 0, .inputPerformed(.tapNotification(id: "m", action: "default", foreground: false), at: nil)),
      Event(t: 0, callback(.sceneWillEnterForeground, "SceneDelegate")),
      Event(t: 0, callback(.sceneDidBecomeActive, "SceneDelegate")),
      Event(t: 0, callback(.didReceive, "NotificationDelegate")),
    ]
    #expect(OpeningInvariants.check(late, scenes: true) == "event 5: a tap's didReceive outside will-enter-foreground … did-become-active")
  }
}
