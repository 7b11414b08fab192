import EventStore

/// Which scenario verbs make sense now: an input and the state give an error or nothing.
/// Pure: it reads the state, the profile and the clock, and changes nothing.
public struct InputRules: Sendable {
  public let profile: Profile

  public init(profile: Profile) { self.profile = profile }

  /// Why `input` cannot be performed now (nil: it can). `declares` says whether the app
  /// declares a view-controller class; `actions` lists the user actions a class declares.
  public func check(_ input: Input, state s: LifecycleState, clockUs clock: Int64,
                    declares: (String) -> Bool, actions: (String) -> [String] = { _ in [] }) -> ScenarioError? {
    do { try validate(input, s, clock, declares, actions) } catch { return error }
    return nil
  }

  /// Every input legal now, drawn from each verb's argument domain: `controllers` (the app's
  /// declared classes) for push and present, the tabs of the window, every interruption, end,
  /// background event, orientation, style and flag; `urls` and `durationsUs` for the verbs that
  /// take a free URL or a duration; `actions` for `act` (the visible controller's actions).
  /// In the order of `VerbSpec.all`.
  public func legalInputs(state: LifecycleState, clockUs: Int64, controllers: [String],
                          urls: [String] = [], durationsUs: [Int64] = [], actions: ActionCatalog = ActionCatalog()) -> [Input] {
    let domain = ArgumentDomain(controllers: controllers, tabs: state.window?.tabs.count ?? 0,
                                urls: urls, durationsUs: durationsUs, scenes: state.sceneLabel.flatMap(InstanceLabel.number).map { [$0] } ?? [],
                                actions: actions, bgTaskRequests: state.backgroundWork.pending.map(\.request.identifier),
                                transferSessions: state.backgroundWork.sessionsWithFinishedTransfers(at: clockUs))
    let declared = Set(controllers)
    return VerbSpec.all.flatMap { $0.candidates(domain) }
      .filter { check($0, state: state, clockUs: clockUs, declares: declared.contains, actions: actions.actions(of:)) == nil }
  }

  private func validate(_ input: Input, _ s: LifecycleState, _ clock: Int64,
                        _ declares: (String) -> Bool, _ actions: (String) -> [String]) throws(ScenarioError) {
    // The state's words are made only for a verb that is refused.
    func fail(_ why: String) -> ScenarioError {
      let where_ = "(state: \(s.appState.rawValue)\(s.locked ? ", device locked" : "")\(s.switcherOpen ? ", app switcher open" : "")\(s.interruption.map { ", \($0.rawValue) in progress" } ?? ""))"
      return ScenarioError("\(input.verb)(): \(why) \(where_)")
    }
    func needActive() throws(ScenarioError) {
      guard s.appState == .active, s.interruption == nil, !s.switcherOpen else {
        throw fail("the app must be active and frontmost")
      }
    }
    func needDeclared(_ name: String) throws(ScenarioError) {
      guard declares(name) else { throw fail("the app declares no controller \"\(name)\"") }
    }
    switch input {
    case .launch, .openURL, .universalLink, .quickAction, .handoff:
      if s.locked { throw fail("the device is locked; unlock() first") }
      if s.switcherOpen { throw fail("the app switcher is open; use switch_to(\"self\")") }
      if s.interruption != nil { throw fail("an interruption is in progress; end_interrupt() first") }
      if case .launch = input, s.appState == .active { throw fail("the app is already active") }
      if case .quickAction = input, s.appState == .active {
        throw fail("quick actions come from the Home Screen and the app is active; home() first")
      }
    case .prewarm:
      if !profile.prewarming { throw fail("prewarming needs iOS 15 or later (profile: iOS \(profile.ios))") }
      if s.process != .notRunning { throw fail("only a process that is not running can be prewarmed") }
    case .home:
      guard s.isForeground, s.interruption == nil, !s.locked else { throw fail("the app is not frontmost") }
    case .lock:
      if s.locked { throw fail("the device is already locked") }
    case .unlock:
      if !s.locked { throw fail("the device is not locked") }
    case .interrupt:
      try needActive()
    case let .endInterrupt(how):
      guard let i = s.interruption else { throw fail("no interruption is in progress") }
      let allowed: [InterruptionEnd] = i == .call ? [.declined, .answered] : [.dismissed]
      guard allowed.contains(how) else {
        throw fail("a \(i.rawValue) ends \(allowed.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")), not \"\(how.rawValue)\"")
      }
    case .appSwitcher:
      if s.switcherOpen { throw fail("the app switcher is already open") }
      if s.locked { throw fail("the device is locked") }
      if s.interruption != nil { throw fail("an interruption is in progress") }
    case .switchTo:
      if !s.switcherOpen { throw fail("the app switcher is not open; app_switcher() first") }
    case .forceQuit:
      guard s.process == .running || s.process == .suspended else { throw fail("there is no process to force quit") }
      if s.appState == .active, !s.switcherOpen { throw fail("the app is active; open the app switcher with app_switcher() first") }
      if s.interruption != nil { throw fail("an interruption is in progress") }
    case .memoryWarning, .memoryPressure, .backgroundLaunch, .criticalMemoryPressure, .timeChange, .reboot:
      break
    case let .disconnectScene(n):
      if let why = SystemEndingRules.whyNotDisconnect(scene: n, s, scenes: profile.scenes) { throw fail(why) }
    case let .advance(us):
      if us > LogLimits.timeMaxUs - clock {
        throw fail("the virtual clock would pass \(LogLimits.timeMaxUs) µs, the latest time a log can hold")
      }
    case let .rotate(o):
      if o == s.orientation { throw fail("the device is already \(o.rawValue)") }
    case let .push(name):
      try needActive()
      try needDeclared(name)
      guard s.navigationStack != nil else { throw fail("no navigation controller is on screen") }
    case .pop:
      try needActive()
      guard let stack = s.navigationStack, stack.count >= 2 else { throw fail("the navigation stack has nothing to pop") }
    case let .present(name, _, _):
      try needActive()
      try needDeclared(name)
    case .dismiss:
      try needActive()
      if s.window?.presented.isEmpty ?? true { throw fail("nothing is presented") }
    case let .selectTab(i):
      try needActive()
      guard let w = s.window, w.container == .tabs else { throw fail("the app has no tab bar") }
      guard (1...w.tabs.count).contains(i) else { throw fail("tab \(i) does not exist (tabs 1 to \(w.tabs.count))") }
      if i - 1 == w.selectedTab { throw fail("tab \(i) is already selected") }
      if !w.presented.isEmpty { throw fail("a modal is presented over the tab bar") }
    case .swipeBack:
      try needActive()
      guard let stack = s.navigationStack, stack.count >= 2 else { throw fail("the navigation stack has nothing to swipe back to") }
    case .swipeDown:
      try needActive()
      guard let p = s.window?.presented.last, p.style.isSheet else { throw fail("no sheet is presented") }
    case let .act(name, _):
      try needActive()
      guard let top = s.topController, let c = s.controllers[top] else { throw fail("no controller is on screen") }
      let declared = actions(c.className)
      guard declared.contains(name) else { throw fail(UserAction.undeclared(name, controller: c.label, declared: declared)) }
    case .notify:
      guard s.appState == .active else { throw fail("the app must be active: a notification for an app in the background is tapped with tap_notification") }
    case let .tapNotification(_, action, foreground):
      guard action == Opening.defaultAction || foreground else { break }  // runs in the background: any time
      if s.locked { throw fail("the device is locked; unlock() first") }
      if s.switcherOpen { throw fail("the app switcher is open; use switch_to(\"self\")") }
      if s.interruption != nil { throw fail("an interruption is in progress; end_interrupt() first") }
    case .bgTask, .power, .transferDone:
      if let why = backgroundWorkRefusal(input, s, clock) { throw fail(why) }
    }
  }
}

extension LifecycleState {
  /// The stack a push goes on, if a navigation controller is on top.
  var navigationStack: [Int]? {
    guard let w = window else { return nil }
    if let p = w.presented.last { return p.navigation ? p.stack : nil }
    return w.navigation ? w.tabs[w.selectedTab] : nil
  }
}
