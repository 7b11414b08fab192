import EventStore
import JSON
import Lifecycle

/// Coverage over any set of logs: the transitions (app state, scene state, verb) their inputs
/// performed, against the transitions each log's profile allows, and the callbacks delivered.
public struct LogCoverage: Sendable {
  public private(set) var covered: Set<Transition> = []
  public private(set) var total: Set<Transition> = []
  /// `Class.callback()` delivered (the instance number dropped).
  public private(set) var callbacks: Set<String> = []
  public private(set) var logs = 0
  /// Runs with several scenes: for each scene (`Scene#2`), the transitions performed with that
  /// scene's own state as the scene state (an input reaches every connected scene); empty while
  /// no log has had two scenes at once, so one-scene coverage reads as before.
  public private(set) var coveredPerScene: [String: Set<Transition>] = [:]

  public init() {}

  /// Adds one log: folds its events, taking the state before each input.
  public mutating func add(_ reader: LogReader) throws {
    let profile = try Profile(json: reader.header.profile)
    var state = LifecycleState()
    var tabs = 0
    var actions = false
    while let line = try reader.next() {
      guard case let .event(logEvent) = line else { continue }
      let event = try Event(logEvent)
      switch event.body {
      case let .inputPerformed(input, _):
        covered.insert(Transition(state, scenes: profile.scenes, verb: input.verb))
        if state.severalScenesSeen { addPerScene(state, verb: input.verb) }
        if case .act = input { actions = true }
      case let .callbackDelivered(cb, target, _, _, _):
        let name = target.firstIndex(of: "#").map { String(target[..<$0]) } ?? target
        callbacks.insert("\(name).\(cb.signature)")
      case let .rootBuilt(container, _, controllers, _):
        if container == .tabs { tabs = max(tabs, controllers.count) }
      case .applicationStateChanged, .sceneActivationChanged, .sceneConnected, .sceneDisconnected, .sceneSessionChanged, .pushed,
           .popped, .presented, .dismissed, .tabSelected, .protectedDataChanged, .restorationChanged, .processStarted, .launchContinued,
           .suspended, .resumed, .terminated, .returned, .appCalled, .notificationPosted, .crashed, .expectationChecked, .noted:
        break
      }
      state.evolve(event)
    }
    total.formUnion(TransitionUniverse(profile: profile, tabs: tabs, url: "lifesim://coverage", actions: actions).transitions)
    logs += 1
  }

  private mutating func addPerScene(_ state: LifecycleState, verb: String) {
    for scene in state.scenes {
      let transition = Transition(appState: state.appState.rawValue, sceneState: scene.activation.rawValue, verb: verb)
      coveredPerScene[scene.label, default: []].insert(transition)
    }
  }

  /// Allowed transitions never performed, in order.
  public var neverReached: [Transition] { total.subtracting(covered).sorted() }
}
