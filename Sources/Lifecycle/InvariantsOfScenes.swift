/// The rules of several scenes that every run keeps whatever its app does (docs/explore.md,
/// "Built-in invariants"): `explore` checks them after every verb, and any random run can feed
/// its events to `record(_:)` and its state after each verb to `check(after:)`. A broken one is
/// a fault of the model, never of the app.
package struct InvariantsOfScenes {
  /// One rule, named as a finding names it.
  package enum Rule: String, CaseIterable, Sendable {
    case applicationStateIsTheMostActiveScenes = "the application state is the most active scene's"
    case noCallbackReachesADisconnectedScene = "no callback reaches a disconnected scene"
    case everyDiscardedSessionWasConnected = "every discarded session was connected once"
    case noAggregateNotificationTwiceInARow = "no UIApplication state notification is posted twice in a row"
  }

  private static let didEnterBackground = "UIApplication.didEnterBackgroundNotification"

  /// The `UIApplication` notifications that follow the aggregate state of the app's scenes.
  package static let aggregateNotifications: Set<String> = [
    "UIApplication.didBecomeActiveNotification", "UIApplication.willResignActiveNotification",
    didEnterBackground, "UIApplication.willEnterForegroundNotification",
  ]

  /// The first rule broken so far (the rules read from events; `check(after:)` adds the state's).
  package private(set) var broken: Rule?
  /// Connected scenes, in connection order, each with the controllers its window holds.
  private var connected: [(scene: String, controllers: Set<String>)] = []
  /// Disconnected scenes and the controllers their windows held when they went.
  private var gone: Set<String> = []
  private var sessionsCreated = 0
  private var sessionsDiscarded = 0
  /// The last aggregate notification of the current process.
  private var lastAggregate: String?

  package init() {}

  /// Follows one event of the run, in order.
  package mutating func record(_ event: Event) {
    switch event.body {
    case let .sceneConnected(scene, _): connected.append((scene, []))
    case let .sceneDisconnected(scene):
      guard let i = connected.firstIndex(where: { $0.scene == scene }) else { return }
      gone.insert(scene)
      gone.formUnion(connected.remove(at: i).controllers)
    case let .sceneSessionChanged(created, _):
      if created { sessionsCreated += 1 } else { sessionsDiscarded += 1 }
      if sessionsDiscarded > sessionsCreated { breaks(.everyDiscardedSessionWasConnected) }
    case let .callbackDelivered(_, target, _, _, arguments):
      guard !gone.isEmpty else { return }  // most runs: no scene went, and nothing to hash
      if gone.contains(target) || arguments.scene.map(gone.contains) == true { breaks(.noCallbackReachesADisconnectedScene) }
    case let .notificationPosted(name, _, _):
      guard Self.aggregateNotifications.contains(name) else { return }
      if lastAggregate == name { breaks(.noAggregateNotificationTwiceInARow) }
      lastAggregate = name
    case .processStarted: lastAggregate = nil
    // A suspended sceneless app woken in the background hears didEnterBackground again
    // (docs/model.md §2, knob resumeBackgroundEventCallsDidEnterBackground).
    case .resumed: if lastAggregate == Self.didEnterBackground { lastAggregate = nil }
    case let .rootBuilt(_, _, controllers, scene): inWindow(of: scene) { $0 = Set(controllers) }
    case let .pushed(label, scene), let .presented(label, _, _, scene): inWindow(of: scene) { _ = $0.insert(label) }
    case let .popped(label, scene), let .dismissed(label, scene): inWindow(of: scene) { _ = $0.remove(label) }
    default: break
    }
  }

  /// Checks the rules that hold between verbs against the state after one, and returns the
  /// first rule broken so far.
  package mutating func check(after state: LifecycleState) -> Rule? {
    if broken == nil, !Self.applicationStateFollowsScenes(state) { breaks(.applicationStateIsTheMostActiveScenes) }
    return broken
  }

  /// `applicationState` is the state of the most active connected scene (active over inactive
  /// over background); an app with no scene in the foreground or background has nothing to follow.
  package static func applicationStateFollowsScenes(_ state: LifecycleState) -> Bool {
    guard state.process == .running || state.process == .suspended else { return true }
    guard let most = state.scenes.lazy.map({ rank($0.activation) }).max(), most > 0 else { return true }
    switch state.applicationState {
    case .active: return most == 3
    case .inactive: return most == 2
    case .background: return most == 1
    }
  }

  private static func rank(_ activation: SceneActivation) -> Int {
    switch activation {
    case .unattached: return 0
    case .background: return 1
    case .foregroundInactive: return 2
    case .foregroundActive: return 3
    }
  }

  /// A view-controller event's window: the scene it names, else the last scene connected.
  private mutating func inWindow(of scene: String?, _ change: (inout Set<String>) -> Void) {
    guard let i = scene == nil ? connected.indices.last : connected.firstIndex(where: { $0.scene == scene }) else { return }
    change(&connected[i].controllers)
  }

  private mutating func breaks(_ rule: Rule) {
    if broken == nil { broken = rule }
  }
}
