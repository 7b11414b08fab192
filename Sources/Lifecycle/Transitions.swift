/// A (app state, scene state, verb) triple: a transition the explorer can cover.
public struct Transition: Hashable, Comparable, Sendable {
  public var appState: String
  public var sceneState: String
  public var verb: String

  public init(appState: String, sceneState: String, verb: String) {
    self.appState = appState; self.sceneState = sceneState; self.verb = verb
  }

  /// The transition a verb performed in `state` is.
  public init(_ state: LifecycleState, scenes: Bool, verb: String) {
    self.init(appState: state.appState.rawValue, sceneState: scenes ? state.sceneActivation.rawValue : "none", verb: verb)
  }

  /// `active/foregroundActive/home`.
  public var text: String { "\(appState)/\(sceneState)/\(verb)" }

  public static func < (a: Self, b: Self) -> Bool { (a.appState, a.sceneState, a.verb) < (b.appState, b.sceneState, b.verb) }
}

/// The transitions a profile allows: every (app state, scene state, verb) that `InputRules`
/// accepts in some consistent state — a process state with its application and scene state,
/// the device locked or not, an interruption in progress or the switcher open (inactive),
/// or the switcher open over an app that is away, a navigation stack of two with or without a
/// sheet over it, and the app's tabs.
public struct TransitionUniverse: Sendable {
  public let transitions: Set<Transition>

  /// `tabs`: the app's tab count (0: no tab bar); `url`: the URL the verbs that take one use.
  public init(profile: Profile, tabs: Int, url: String) {
    let rules = InputRules(profile: profile)
    var found: Set<Transition> = []
    for state in Self.representativeStates(profile: profile, tabs: tabs) {
      let legal = rules.legalInputs(state: state, clockUs: 0, controllers: ["A"], urls: [url],
                                    durationsUs: [1_000_000])
      for input in legal { found.insert(Transition(state, scenes: profile.scenes, verb: input.verb)) }
    }
    transitions = found
  }

  private static func representativeStates(profile: Profile, tabs: Int) -> [LifecycleState] {
    var states: [LifecycleState] = []
    let processes: [(ProcessState, ApplicationState, SceneActivation)] = profile.scenes
      ? [(.notRunning, .background, .unattached), (.prewarmed, .background, .unattached),
         (.running, .inactive, .foregroundInactive), (.running, .active, .foregroundActive),
         (.running, .background, .background), (.running, .background, .unattached),
         (.suspended, .background, .background), (.suspended, .background, .unattached)]
      : [(.notRunning, .background, .unattached), (.prewarmed, .background, .unattached),
         (.running, .inactive, .unattached), (.running, .active, .unattached),
         (.running, .background, .unattached), (.suspended, .background, .unattached)]
    for (process, application, scene) in processes {
      for locked in [false, true] where !(locked && application != .background) {
        // The switcher may be open over an app that is away too; never while locked.
        let foregroundExtras: [(Bool, Interruption?)]
        switch (process == .running ? application : .background, locked) {
        case (.inactive, _): foregroundExtras = [(true, nil), (false, .call), (false, .alert)]
        case (.active, _), (.background, true): foregroundExtras = [(false, nil)]
        case (.background, false): foregroundExtras = [(false, nil), (true, nil)]
        }
        for (switcher, interruption) in foregroundExtras {
          for sheet in [false, true] {
            var s = LifecycleState()
            s.process = process; s.applicationState = application; s.sceneActivation = scene
            s.locked = locked; s.switcherOpen = switcher; s.interruption = interruption
            if scene != .unattached { s.sceneLabel = "Scene#1" }  // a connected scene (disconnect_scene names it)
            if process == .running || process == .suspended {
              let tabCount = max(tabs, 1)
              var w = Window(container: tabs > 0 ? .tabs : .navigation,
                             tabs: (0..<tabCount).map { [$0 * 2 + 1, $0 * 2 + 2] }, navigation: true)
              if sheet { w.presented = [Presentation(stack: [99], style: .pageSheet, navigation: false)] }
              s.window = w
            } else if sheet {
              continue
            }
            states.append(s)
          }
        }
      }
    }
    return states
  }
}
