/// A (app state, scene state, verb) triple: a transition the explorer can cover.
public struct Transition: Hashable, Comparable, Sendable {
  public var appState: String
  public var sceneState: String
  public var verb: String

  public init(appState: String, sceneState: String, verb: String) {
    self.appState = appState; self.sceneState = sceneState; self.verb = verb
  }

  /// The transition a verb performed in `state` is.
  public init(_ state: borrowing LifecycleState, scenes: Bool, verb: String) {
    self.init(appState: state.appState.rawValue, sceneState: scenes ? (state.frontScene?.activation ?? .unattached).rawValue : "none", verb: verb)
  }

  /// `active/foregroundActive/home`.
  public var text: String { "\(appState)/\(sceneState)/\(verb)" }

  public static func < (a: Self, b: Self) -> Bool { (a.appState, a.sceneState, a.verb) < (b.appState, b.sceneState, b.verb) }
}

/// The transitions a profile allows: every (app state, scene state, verb) that `InputRules`
/// accepts in some consistent state — a process state with its application and scene state,
/// the device locked or not, an interruption in progress or the switcher open (inactive),
/// or the switcher open over an app that is away, a navigation stack of two with or without a
/// sheet over it, and the app's tabs; each with a due BGTaskScheduler request and a finished
/// background transfer pending, so `bg_task` and `transfer_done` count where they are legal,
/// and, where continued processing tasks exist (iOS 26), a running process with a continued
/// task running, so `cancel_task` counts too.
public struct TransitionUniverse: Sendable {
  public let transitions: Set<Transition>

  /// `tabs`: the app's tab count (0: no tab bar); `url`: the URL the verbs that take one use;
  /// `actions`: the app declares user actions (`act`), here on every controller.
  public init(profile: Profile, tabs: Int, url: String, actions: Bool = false) {
    let rules = InputRules(profile: profile)
    var found: Set<Transition> = []
    let catalog = ActionCatalog(byController: actions ? ["A": ["a"]] : [:])
    for state in Self.representativeStates(profile: profile, tabs: tabs) {
      let legal = rules.legalInputs(state: state, clockUs: 0, controllers: ["A"], urls: [url],
                                    durationsUs: [1_000_000], actions: catalog)
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
            s.process = process; s.applicationState = application
            s.locked = locked; s.switcherOpen = switcher; s.interruption = interruption
            // a connected scene (disconnect_scene names it), and its window's session, kept
            // unattached when it is not (focus(1) reconnects it)
            if scene != .unattached { s.scenes = [SceneState(label: SceneState.label(number: 1), activation: scene)] }
            if profile.scenes { s.sessions = [SceneSession(number: 1, scene: s.scenes.first?.label)] }
            s.backgroundWork.pending = [PendingBGTaskRequest(request: BGTaskRequest(identifier: "A", kind: .refresh), dueAt: 0)]
            s.backgroundWork.transfers = [BackgroundTransfer(id: 1, session: "A", startedAt: 0, durationUs: 0)]
            if process == .running, profile.continuedProcessingTasks {
              s.backgroundWork.running = [RunningBGTask(identifier: "A", kind: .continued, startedAt: 0)]
            }
            if process == .running || process == .suspended {
              let tabCount = max(tabs, 1)
              var w = ViewControllerTree(container: tabs > 0 ? .tabs : .navigation,
                             tabs: (0..<tabCount).map { [$0 * 2 + 1, $0 * 2 + 2] }, navigation: true)
              if sheet { w.presented = [Presentation(stack: [99], style: .pageSheet, navigation: false)] }
              if s.scenes.isEmpty { s.applicationWindow = w } else { s.scenes[0].window = w }
              for id in w.tabs.joined() + [99] { s.controllers[id] = Controller(id: id, className: "A", label: "A#\(id)") }
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
