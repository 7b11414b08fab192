import JSON

/// Which scenario verbs make sense now: an input and the state give an error or nothing.
/// Pure: it reads the state, the profile and the clock, and changes nothing.
public struct InputRules: Sendable {
  public let profile: Profile

  public init(profile: Profile) { self.profile = profile }

  /// Why `input` cannot be performed now (nil: it can). `declares` says whether the app
  /// declares a view-controller class; `actions` lists the user actions a class declares.
  public func check(_ input: Input, state s: LifecycleState, clockUs clock: Int64,
                    declares: (String) -> Bool, actions: (String) -> [String] = { _ in [] }) -> ScenarioError? {
    do { try validate(input, s, clock, declares, actions, explains: true) } catch { return error }
    return nil
  }

  /// Whether `input` can be performed now: `check` without the words of a refusal, which
  /// exploration asks of every candidate input at every step.
  public func allows(_ input: Input, state s: LifecycleState, clockUs clock: Int64,
                     declares: (String) -> Bool, actions: (String) -> [String] = { _ in [] }) -> Bool {
    do { try validate(input, s, clock, declares, actions, explains: false) } catch { return false }
    return true
  }

  /// Every input legal now, drawn from each verb's argument domain: `controllers` (the app's
  /// declared classes) for push and present, the tabs of the window, every interruption, end,
  /// background event, orientation, style and flag; `urls` and `durationsUs` for the verbs that
  /// take a free URL or a duration; `actions` for `act` (the visible controller's actions).
  /// In the order of `VerbSpec.all`.
  public func legalInputs(state: LifecycleState, clockUs: Int64, controllers: [String],
                          urls: [String] = [], durationsUs: [Int64] = [], actions: ActionCatalog = ActionCatalog()) -> [Input] {
    var domain = ArgumentDomain(controllers: controllers, tabs: state.frontWindow?.tabs.count ?? 0,
                                urls: urls, durationsUs: durationsUs, scenes: state.scenes.compactMap { InstanceLabel.number($0.label) },
                                actions: actions, bgTaskRequests: state.backgroundWork.pending.map(\.request.identifier),
                                transferSessions: state.backgroundWork.sessionsWithFinishedTransfers(at: clockUs))
    domain.continuedTasks = state.backgroundWork.cancellableContinued
    let declared = Set(controllers)
    return VerbSpec.all.flatMap { $0.candidates(domain) }
      .filter { allows($0, state: state, clockUs: clockUs, declares: declared.contains, actions: actions.actions(of:)) }
  }

  private func validate(_ input: Input, _ s: LifecycleState, _ clock: Int64, _ declares: (String) -> Bool,
                        _ actions: (String) -> [String], explains: Bool) throws(ScenarioError) {
    try withoutActuallyEscaping(declares) { declares throws(ScenarioError) in
      try withoutActuallyEscaping(actions) { actions throws(ScenarioError) in
        try withUnsafePointer(to: s) { state throws(ScenarioError) in
          try withUnsafePointer(to: profile) { profile throws(ScenarioError) in
            try input.spec.refusal(VerbRule(input: input, state: state, profile: profile, clockUs: clock, declares: declares,
                                            actions: actions, explains: explains))
          }
        }
      }
    }
  }
}

extension LifecycleState {
  /// The stack a push goes on, if a navigation controller is on top.
  var navigationStack: [Int]? {
    guard let w = frontWindow else { return nil }
    if let p = w.presented.last { return p.navigation ? p.stack : nil }
    return w.navigation ? w.tabs[w.selectedTab] : nil
  }
}
