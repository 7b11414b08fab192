import EventStore

/// The model of iOS: decides what happens for each input and app call, as
/// events, and folds every event into `state` with `evolve` — the only place
/// state changes, so replaying the log rebuilds the same state.
///
/// One virtual clock (`clock`, µs). App code consumes time only through
/// `work`; pending things (expiration handlers, kill deadlines, `after` work,
/// the protected-data lock) are derived from the state and fire in
/// (time, kind, id) order, so ties break the same way every run.
public final class Simulator {
  public let profile: Profile
  public private(set) var state = LifecycleState()
  /// Virtual now, µs. Never goes backwards; may be ahead of the last event.
  public private(set) var clock: Int64 = 0
  public let driver: AppDriver
  private let record: (Event) -> Void

  /// Nesting of app code (0: UIKit is not inside any app code).
  private var depth = 0
  /// Main-thread deadlines in force: launch, didEnterBackground, willTerminate, foreground hang.
  /// Deadlines the main thread must not block past, innermost last.
  private var watchdogs: [(deadline: Int64, watchdog: Watchdog)] = []

  /// What a watchdog guards; its termination's words are made only if it fires.
  private enum Watchdog {
    case launch, didEnterBackground(Callback), willTerminate, foregroundHang(handler: String)
  }
  /// Inside a foreground launch (the launch watchdog applies, not the hang limit).
  private var launching = false
  /// The app's top-level code is running (process creation): app calls are allowed.
  private var loadingApp = false
  private var layout = AppLayout()

  /// Blocks scheduled with `after` that one verb may run. A chain that re-posts itself would
  /// otherwise keep the main thread busy forever at one instant (and the log growing); past
  /// this the run stops with a script error naming where the last block was scheduled.
  public static let afterBlocksPerVerbMax = 10_000
  private var afterBlocksThisVerb = 0
  /// Where each pending `after` was called (for that message); dropped when it runs.
  private var afterLocations: [Int: String] = [:]
  /// Set when a verb ran more than `afterBlocksPerVerbMax` blocks: nothing more fires.
  private var runaway: ScenarioError?

  /// `record` receives every event after it is folded into `state` (the log writer, a test's array).
  public init(profile: Profile, driver: AppDriver, record: @escaping (Event) -> Void) {
    self.profile = profile
    self.driver = driver
    self.record = record
  }

  // MARK: - Recording

  func emit(_ body: EventBody) {
    let event = Event(t: clock, body)
    state.evolve(event)
    record(event)
  }

  /// Records a note (a script error, a `log` from the scenario side).
  public func note(_ name: String, _ message: String) { emit(.note(name: name, message: message)) }

  // MARK: - Inputs (scenario verbs)

  /// Performs a scenario verb: validates it against the state, records it,
  /// runs UIKit's sequence, then lets pending work due now run.
  public func perform(_ input: Input, at: String? = nil) throws(ScenarioError) {
    try validate(input)
    afterBlocksThisVerb = 0
    emit(.input(input, at: at))
    do {
      try run(input)
    } catch {}
    settle()
    if let runaway { throw runaway }
  }

  private func validate(_ input: Input) throws(ScenarioError) {
    let s = state
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
    switch input {
    case .launch, .openURL:
      if s.locked { throw fail("the device is locked; unlock() first") }
      if s.switcherOpen { throw fail("the app switcher is open; use switch_to(\"self\")") }
      if s.interruption != nil { throw fail("an interruption is in progress; end_interrupt() first") }
      if case .launch = input, s.appState == .active { throw fail("the app is already active") }
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
    case .memoryWarning, .memoryPressure, .backgroundLaunch:
      break
    case let .advance(us):
      if us > LogLimits.timeMaxUs - clock {
        throw fail("the virtual clock would pass \(LogLimits.timeMaxUs) µs, the latest time a log can hold")
      }
    case let .rotate(o):
      if o == s.orientation { throw fail("the device is already \(o.rawValue)") }
    case let .push(name):
      try needActive()
      try validateNavigation(name: name, fail: fail)
      guard navigationStack() != nil else { throw fail("no navigation controller is on screen") }
    case .pop:
      try needActive()
      guard let stack = navigationStack(), stack.count >= 2 else { throw fail("the navigation stack has nothing to pop") }
    case let .present(name, _, _):
      try needActive()
      try validateNavigation(name: name, fail: fail)
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
      guard let stack = navigationStack(), stack.count >= 2 else { throw fail("the navigation stack has nothing to swipe back to") }
    case .swipeDown:
      try needActive()
      guard let p = s.window?.presented.last, p.style.isSheet else { throw fail("no sheet is presented") }
    }
  }

  private func validateNavigation(name: String, fail: (String) -> ScenarioError) throws(ScenarioError) {
    guard driver.declares(controller: name) else { throw fail("the app declares no controller \"\(name)\"") }
  }

  private func run(_ input: Input) throws(ProcessEnded) {
    let s = state
    switch input {
    case let .launch(url):
      try userLaunch(url: url)
    case let .openURL(url):
      try userLaunch(url: url)
    case .prewarm:
      try startProcess(mode: .prewarm, state: .background)
      if profile.prewarmRunsDidFinish == .always || (profile.prewarmRunsDidFinish == .sceneAppsOnly && profile.scenes) {
        try deliver(.willFinishLaunchingWithOptions, "AppDelegate")
        try deliver(.didFinishLaunchingWithOptions, "AppDelegate")
        try post("UIApplication.didFinishLaunchingNotification")
      }
    case .home:
      if s.applicationState == .active { try resignActive() }
      try enterBackground()
    case .lock:
      if s.isForeground {
        if s.applicationState == .active { try resignActive() }
        try enterBackground()
      }
    case .unlock:
      if !s.protectedDataAvailable { try protectedData(available: true) }
      if s.frontmostAtLock { try userLaunch(url: nil) }
    case let .interrupt(kind):
      try resignActive()
      if kind == .notificationCenter, profile.notificationCenterDoubleActivation {
        // Fully extended, the center lets the app become active and resign again.
        try becomeActive()
        try resignActive()
      }
    case let .endInterrupt(how):
      guard s.isForeground else { return }
      if how == .answered { try enterBackground() } else { try becomeActive() }
    case .appSwitcher:
      if s.applicationState == .active, s.process == .running { try resignActive() }
    case let .switchTo(other):
      if other {
        if s.isForeground { try enterBackground() }
      } else if s.isForeground {
        try becomeActive()
      } else {
        try userLaunch(url: nil)
      }
    case .forceQuit:
      try forceQuit()
    case .memoryWarning:
      guard s.process == .running else {
        note("memoryWarningNotDelivered", "a \(s.appState.rawValue) app receives no memory warning")
        return
      }
      try deliver(.applicationDidReceiveMemoryWarning, "AppDelegate")
      // Every instance, loaded or not; no view is loaded to deliver it.
      for id in state.windowControllers where state.controllers[id] != nil {
        try deliver(.didReceiveMemoryWarning, state.label(id))
      }
      try post("UIApplication.didReceiveMemoryWarningNotification")
    case .memoryPressure:
      guard s.process == .suspended || s.process == .prewarmed else {
        note("notReclaimed", "memory pressure reclaims suspended apps; this one is \(s.appState.rawValue)")
        return
      }
      terminate(Termination(reason: .jetsam, code: nil,
                            description: "vm-pageshortage: the system reclaimed the suspended app's memory"))
    case let .backgroundLaunch(event):
      try backgroundLaunch(event)
    case .rotate:
      if s.isForeground { try deliverRotation() }
    case let .push(name): try push(name)
    case .pop: try pop(cancelled: false)
    case let .present(name, style, navigation):
      try present(name, style: style ?? profile.defaultPresentationStyle, navigation: navigation)
    case .dismiss: try dismiss(cancelled: false)
    case let .selectTab(i): try selectTab(i)
    case let .swipeBack(cancel): try pop(cancelled: cancel)
    case let .swipeDown(cancel): try dismiss(cancelled: cancel)
    case let .advance(us): advance(us)
    }
  }

  // MARK: - Launch

  private func startProcess(mode: LaunchMode, state appState: ApplicationState) throws(ProcessEnded) {
    emit(.processStarted(mode: mode, state: appState))
    loadingApp = true
    let started = driver.startProcess()
    loadingApp = false
    switch started {
    case let .success(l): layout = l
    case let .failure(fault): try fail(fault, in: "app script", target: "App")
    }
    if profile.sceneRequiredNote, !profile.scenes, mode != .prewarm {
      note("sceneLifecycleRequired", "UIScene lifecycle will soon be required. Failure to adopt will result in an assert in the future.")
    }
  }

  /// The user opens the app: icon, URL, unlock, or the switcher.
  private func userLaunch(url: String?) throws(ProcessEnded) {
    switch state.process {
    case .notRunning:
      try startProcess(mode: .foreground, state: profile.scenes ? .background : .inactive)
      try foregroundLaunch(url: url)
    case .prewarmed:
      emit(.launchContinued(state: profile.scenes ? .background : .inactive))
      try foregroundLaunch(url: url)
    case .suspended, .running:
      if state.process == .suspended { emit(.resumed) }
      if state.applicationState == .active {
        if let url { try deliver(profile.scenes ? .openURLContexts : .openURL, profile.scenes ? "SceneDelegate" : "AppDelegate", url: url) }
        return
      }
      try returnToForeground(url: url)
    }
  }

  /// willFinish … the root's viewDidAppear, under the launch watchdog.
  private func foregroundLaunch(url: String?) throws(ProcessEnded) {
    launching = true
    watchdogs.append((clock + profile.launchWatchdog_us, .launch))
    defer { launching = false; if !watchdogs.isEmpty { watchdogs.removeLast() } }
    if !profile.scenes { try buildRoot() }
    if !state.didFinishLaunchingRan {
      try deliver(.willFinishLaunchingWithOptions, "AppDelegate", url: url)
      try deliver(.didFinishLaunchingWithOptions, "AppDelegate", url: url)
      try post("UIApplication.didFinishLaunchingNotification")
    }
    if profile.scenes {
      try connectScene(url: url)
    } else {
      try showRootSceneless(url: url)
    }
  }

  /// Sceneless: the root appears around applicationDidBecomeActive (knob launchAppearanceOrder).
  private func showRootSceneless(url: String?) throws(ProcessEnded) {
    guard let root = state.topController else { return }
    try loadView(root)
    switch profile.launchAppearanceOrder {
    case .willAppearBeforeActive:
      try beginAppearance(root)
      if let url { try deliver(.openURL, "AppDelegate", url: url) }
      try becomeActive()
      try deliver(.viewDidAppear, state.label(root))
    case .allVCBeforeActive:
      try beginAppearance(root)
      try deliver(.viewDidAppear, state.label(root))
      if let url { try deliver(.openURL, "AppDelegate", url: url) }
      try becomeActive()
    case .allVCAfterActive:
      if let url { try deliver(.openURL, "AppDelegate", url: url) }
      try becomeActive()
      try beginAppearance(root)
      try deliver(.viewDidAppear, state.label(root))
    }
  }

  /// Scene apps: [didDiscardSceneSessions] [configurationForConnecting] willConnectTo, the root, foreground, active.
  private func connectScene(url: String?) throws(ProcessEnded) {
    if state.sessionDiscardPending { try deliver(.didDiscardSceneSessions, "AppDelegate") }
    if !state.sceneSession {
      try deliver(.configurationForConnecting, "AppDelegate")
      emit(.sceneSession(created: true))
    }
    emit(.sceneConnected(scene: "Scene#\(state.scenesConnected + 1)"))
    try buildRoot()
    try deliver(.willConnectTo, "SceneDelegate", url: url)
    try post("UIScene.willConnectNotification")
    guard let root = state.topController else { return }
    try loadView(root)
    switch profile.sceneLaunchAppearanceOrder {
    case .willAppearBeforeForeground:
      try beginAppearance(root)
      try enterForeground(url: nil)
      try becomeActive()
    case .allVCAfterActive:
      try enterForeground(url: nil)
      try becomeActive()
      try beginAppearance(root)
    }
    try deliver(.viewDidAppear, state.label(root))
  }

  /// Back from background or suspension (the process still exists).
  private func returnToForeground(url: String?) throws(ProcessEnded) {
    if profile.scenes, state.sceneLabel == nil {
      // Launched in the background, or its scene was disconnected: connect one now.
      launching = true
      defer { launching = false }
      try connectScene(url: url)
      return
    }
    try enterForeground(url: url)
    if !profile.scenes, state.window == nil {
      // A sceneless app launched in the background builds its window now.
      try buildRoot()
      if let root = state.topController {
        try loadView(root)
        try beginAppearance(root)
        try becomeActive()
        try deliver(.viewDidAppear, state.label(root))
        return
      }
    }
    try becomeActive()
  }

  private func backgroundLaunch(_ event: BackgroundEvent) throws(ProcessEnded) {
    if state.forceQuit {
      note("backgroundLaunchNotDelivered", "the user force quit the app: \(event.rawValue) is not delivered until the user opens it again")
      return
    }
    switch state.process {
    case .notRunning, .prewarmed:
      if state.process == .notRunning {
        try startProcess(mode: .background, state: .background)
      } else {
        emit(.launchContinued(state: .background))
      }
      if !state.didFinishLaunchingRan {
        try deliver(.willFinishLaunchingWithOptions, "AppDelegate")
        try deliver(.didFinishLaunchingWithOptions, "AppDelegate")
        try post("UIApplication.didFinishLaunchingNotification")
      }
      if !profile.scenes { try didEnterBackground() }
    case .suspended:
      emit(.resumed)
      if !profile.scenes, profile.resumeBackgroundEventCallsDidEnterBackground { try didEnterBackground() }
    case .running:
      break
    }
    try deliver(event.callback, "AppDelegate", completion: state.completionsIssued + 1)
  }

  // MARK: - App-level transitions

  private func setApplicationState(_ to: ApplicationState) {
    if state.applicationState != to { emit(.applicationState(from: state.applicationState, to: to)) }
  }

  private func setScene(_ to: SceneActivation) {
    if let scene = state.sceneLabel, state.sceneActivation != to {
      emit(.sceneActivation(scene: scene, from: state.sceneActivation, to: to))
    }
  }

  private func resignActive() throws(ProcessEnded) {
    if profile.scenes {
      try deliver(.sceneWillResignActive, "SceneDelegate")
      try post("UIScene.willDeactivateNotification")
      try post("UIApplication.willResignActiveNotification")
      setScene(.foregroundInactive)
    } else {
      try deliver(.applicationWillResignActive, "AppDelegate")
      try post("UIApplication.willResignActiveNotification")
    }
    setApplicationState(.inactive)
  }

  private func becomeActive() throws(ProcessEnded) {
    if profile.scenes {
      setScene(.foregroundActive)
      setApplicationState(.active)
      try deliver(.sceneDidBecomeActive, "SceneDelegate")
      try post("UIScene.didActivateNotification")
      try post("UIApplication.didBecomeActiveNotification")
    } else {
      setApplicationState(.active)
      try deliver(.applicationDidBecomeActive, "AppDelegate")
      try post("UIApplication.didBecomeActiveNotification")
    }
  }

  /// inactive → background: the transition, the 5 s budget, then the snapshot.
  private func enterBackground() throws(ProcessEnded) {
    setScene(.background)
    setApplicationState(.background)
    try didEnterBackground()
    if profile.snapshotTraitFlip {
      let visible = state.visibleControllers
      for _ in 0..<2 {
        for id in visible { try deliver(.traitCollectionDidChange, state.label(id)) }
      }
    }
  }

  /// The didEnterBackground callback and notifications, under their budget.
  private func didEnterBackground() throws(ProcessEnded) {
    let callback: Callback = profile.scenes ? .sceneDidEnterBackground : .applicationDidEnterBackground
    watchdogs.append((clock + profile.didEnterBackgroundBudget_us, .didEnterBackground(callback)))
    defer { if !watchdogs.isEmpty { watchdogs.removeLast() } }
    if profile.scenes {
      try deliver(.sceneDidEnterBackground, "SceneDelegate")
      try post("UIScene.didEnterBackgroundNotification")
    } else {
      try deliver(.applicationDidEnterBackground, "AppDelegate")
    }
    try post("UIApplication.didEnterBackgroundNotification")
  }

  /// background → inactive (rotation news first, then the URL after willEnterForeground).
  private func enterForeground(url: String?) throws(ProcessEnded) {
    if state.rotationPending { try deliverRotation() }
    if profile.scenes {
      try deliver(.sceneWillEnterForeground, "SceneDelegate")
      try post("UIScene.willEnterForegroundNotification")
      try post("UIApplication.willEnterForegroundNotification")
      setScene(.foregroundInactive)
      setApplicationState(.inactive)
      if let url { try deliver(.openURLContexts, "SceneDelegate", url: url) }
    } else {
      try deliver(.applicationWillEnterForeground, "AppDelegate")
      try post("UIApplication.willEnterForegroundNotification")
      setApplicationState(.inactive)
      if let url { try deliver(.openURL, "AppDelegate", url: url) }
    }
  }

  private func protectedData(available: Bool) throws(ProcessEnded) {
    if available {
      emit(.protectedData(available: true))
      if state.process == .running {
        try deliver(.applicationProtectedDataDidBecomeAvailable, "AppDelegate")
        try post("UIApplication.protectedDataDidBecomeAvailableNotification")
      }
    } else {
      if state.process == .running {
        try deliver(.applicationProtectedDataWillBecomeUnavailable, "AppDelegate")
        try post("UIApplication.protectedDataWillBecomeUnavailableNotification")
      }
      emit(.protectedData(available: false))
    }
  }

  private func forceQuit() throws(ProcessEnded) {
    guard state.process == .running else {
      if profile.scenes, state.sceneSession { emit(.sceneSession(created: false)) }
      terminate(Termination(reason: .user, code: nil, description: "force quit from the app switcher while suspended"))
      return
    }
    if profile.scenes, let scene = state.sceneLabel {
      try deliver(.sceneDidDisconnect, "SceneDelegate")
      try post("UIScene.didDisconnectNotification")
      emit(.sceneDisconnected(scene: scene))
    }
    watchdogs.append((clock + profile.willTerminateBudget_us, .willTerminate))
    defer { if !watchdogs.isEmpty { watchdogs.removeLast() } }
    try deliver(.applicationWillTerminate, "AppDelegate")
    try post("UIApplication.willTerminateNotification")
    if profile.scenes, state.sceneSession { emit(.sceneSession(created: false)) }
    terminate(Termination(reason: .user, code: nil, description: "force quit from the app switcher"))
  }

  // MARK: - View controllers

  /// Builds the window's root from the app's layout: transition, then init(coder:) for each root.
  private func buildRoot() throws(ProcessEnded) {
    var labels: [String] = []
    var counts: [String: Int] = [:]
    for cls in layout.roots {
      counts[cls, default: state.instancesPerClass[cls] ?? 0] += 1
      labels.append("\(cls)#\(counts[cls]!)")
    }
    let navigation = layout.container == .navigation || (layout.container == .tabs && layout.tabsHaveNavigation)
    emit(.rootBuilt(container: layout.container, navigation: navigation, controllers: labels))
    for label in labels { try deliver(.`init`, label) }
  }

  private func nextLabel(_ cls: String) -> String { "\(cls)#\((state.instancesPerClass[cls] ?? 0) + 1)" }

  /// The stack a push goes on, if a navigation controller is on top.
  private func navigationStack() -> [Int]? {
    guard let w = state.window else { return nil }
    if let p = w.presented.last { return p.navigation ? p.stack : nil }
    return w.navigation ? w.tabs[w.selectedTab] : nil
  }

  private func loadView(_ id: Int) throws(ProcessEnded) {
    guard state.controllers[id]?.viewLoaded == false else { return }
    try deliver(.loadView, state.label(id))
    try deliver(.viewDidLoad, state.label(id))
  }

  /// viewWillAppear → viewIsAppearing (iOS ≥ 13) → updateProperties (iOS ≥ 26) → layout.
  /// A controller that was hidden during a rotation gets willTransition(to:with:) first, its new
  /// traits once its view is back in the window (before viewIsAppearing), and a layout pass for
  /// its new size even where the appearance has none otherwise (`layout: false`).
  private func beginAppearance(_ id: Int, layout doLayout: Bool = true) throws(ProcessEnded) {
    let label = state.label(id)
    let rotatedWhileHidden = state.controllers[id]?.traitsStale == true
    if rotatedWhileHidden { try deliver(.willTransitionToTraitCollection, label) }
    try deliver(.viewWillAppear, label)
    if rotatedWhileHidden { try deliver(.traitCollectionDidChange, label) }
    if profile.viewIsAppearing { try deliver(.viewIsAppearing, label) }
    if doLayout || rotatedWhileHidden { try layoutPass(label) }
  }

  private func layoutPass(_ label: String) throws(ProcessEnded) {
    if profile.updateProperties { try deliver(.updateProperties, label) }
    try deliver(.viewWillLayoutSubviews, label)
    try deliver(.viewDidLayoutSubviews, label)
  }

  private func deliverRotation() throws(ProcessEnded) {
    let visible = state.visibleControllers
    for id in visible { try deliver(.willTransitionToTraitCollection, state.label(id)) }
    for id in visible { try deliver(.viewWillTransitionToSize, state.label(id)) }
    for id in visible { try deliver(.traitCollectionDidChange, state.label(id)) }
    for id in visible {
      try deliver(.viewWillLayoutSubviews, state.label(id))
      try deliver(.viewDidLayoutSubviews, state.label(id))
    }
  }

  private func push(_ cls: String) throws(ProcessEnded) {
    guard let a = state.topController else { return }
    let b = nextLabel(cls)
    emit(.pushed(b))
    try deliver(.`init`, b)
    guard let bid = state.controllerIDs[b] else { return }
    try loadView(bid)
    try deliver(.viewWillDisappear, state.label(a))
    try beginAppearance(bid)
    try deliver(.viewDidDisappear, state.label(a))
    try deliver(.viewDidAppear, b)
  }

  /// pop(), swipe_back{} (completed), or swipe_back{cancel = true}.
  private func pop(cancelled: Bool) throws(ProcessEnded) {
    guard let stack = navigationStack(), stack.count >= 2 else { return }
    let b = state.label(stack[stack.count - 1]), aID = stack[stack.count - 2], a = state.label(aID)
    try deliver(.viewWillDisappear, b)
    if cancelled {
      try beginAppearance(aID, layout: false)
      try deliver(.viewWillDisappear, a)
      try deliver(.viewDidDisappear, a)
      try deliver(.viewWillAppear, b)
      if profile.viewIsAppearing { try deliver(.viewIsAppearing, b) }
      try deliver(.viewDidAppear, b)
      return
    }
    try beginAppearance(aID)
    try deliver(.viewDidDisappear, b)
    emit(.popped(b))
    try deliver(.viewDidAppear, a)
  }

  private func present(_ cls: String, style: PresentationStyle, navigation: Bool) throws(ProcessEnded) {
    let hidden = style.removesPresenter ? Array(state.visibleControllers.reversed()) : []
    let b = nextLabel(cls)
    emit(.presented(b, style: style, navigation: navigation))
    try deliver(.`init`, b)
    guard let bid = state.controllerIDs[b] else { return }
    try loadView(bid)
    for id in hidden { try deliver(.viewWillDisappear, state.label(id)) }
    try beginAppearance(bid)
    try deliver(.viewDidAppear, b)
    for id in hidden { try deliver(.viewDidDisappear, state.label(id)) }
  }

  /// dismiss(), swipe_down{} (completed), or swipe_down{cancel = true}.
  private func dismiss(cancelled: Bool) throws(ProcessEnded) {
    guard let level = state.window?.presented.last, let bid = level.stack.last else { return }
    let b = state.label(bid)
    try deliver(.viewWillDisappear, b)
    if cancelled {
      try deliver(.viewWillAppear, b)
      if profile.viewIsAppearing { try deliver(.viewIsAppearing, b) }
      try deliver(.viewDidAppear, b)
      return
    }
    var revealed: [Int] = []
    if level.style.removesPresenter, var w = state.window {
      w.presented.removeLast()
      var below = LifecycleState()
      below.window = w
      revealed = below.visibleControllers
    }
    // The presenter's view comes back as it was: laid out again only if its size changed.
    for id in revealed { try beginAppearance(id, layout: false) }
    for id in revealed { try deliver(.viewDidAppear, state.label(id)) }
    try deliver(.viewDidDisappear, b)
    emit(.dismissed(b))
  }

  private func selectTab(_ index: Int) throws(ProcessEnded) {
    guard let a = state.topController, let w = state.window, let bid = w.tabs[index - 1].last else { return }
    emit(.tabSelected(index: index, controller: state.label(bid)))
    try loadView(bid)
    try beginAppearance(bid)
    try deliver(.viewWillDisappear, state.label(a))
    try deliver(.viewDidDisappear, state.label(a))
    try deliver(.viewDidAppear, state.label(bid))
  }

  // MARK: - Running app code

  /// Records a callback and, if the app implements it, runs it.
  private func deliver(_ cb: Callback, _ target: String, url: String? = nil, completion: Int? = nil) throws(ProcessEnded) {
    let handled = driver.implements(cb, target: target)
    emit(.callback(cb, target: target, handled: handled, depth: depth, url: url, completion: handled ? completion : nil))
    guard handled else { return }
    try runApp(.callback(cb, target: target, url: url, completion: handled ? completion : nil),
               name: cb.signature, target: target)
  }

  /// Posts a notification; the app's observers run if it has any.
  private func post(_ name: String) throws(ProcessEnded) {
    assert(NotificationName.all.contains(name), "\(name) is posted but observe does not accept it")
    let handled = state.observers.contains(name)
    emit(.notification(name: name, handled: handled, depth: depth))
    guard handled else { return }
    try runApp(.notification(name), name: name, target: "NotificationCenter")
  }

  private func runApp(_ job: AppJob, name: String, target: String) throws(ProcessEnded) {
    let generation = state.generation
    let start = clock
    let watchHang = depth == 0 && state.isForeground && !launching
    if watchHang {
      watchdogs.append((clock + profile.foregroundHangLimit_us, .foregroundHang(handler: name)))
    }
    depth += 1
    let fault = driver.run(job)
    depth -= 1
    if watchHang, state.generation == generation, !watchdogs.isEmpty { watchdogs.removeLast() }
    guard state.generation == generation, state.process != .notRunning else { throw ProcessEnded() }
    if let fault { try fail(fault, in: name, target: target) }
    emit(.returned(name: name, target: target, usedUs: clock - start, depth: depth))
  }

  /// App code ended badly: record the kill and end the process.
  private func fail(_ fault: AppFault, in name: String, target: String) throws(ProcessEnded) {
    switch fault {
    case let .error(message, traceback):
      emit(.crash(name: name, target: target, message: message, traceback: traceback))
      endProcess()
    case .instructionLimit:
      terminate(Termination(reason: .watchdog, code: "0x8badf00d",
                            description: "main thread unresponsive: \(name) on \(target) ran past the limit of \(profile.instructionLimit) Lua instructions"))
    case .memoryLimit:
      terminate(Termination(reason: .jetsam, code: nil,
                            description: "\(Termination.memoryLimitJetsamPrefix): the app's memory went over \(profile.memoryLimitBytes / (1 << 20)) MiB in \(name)"))
    case .processEnded:
      break
    }
    throw ProcessEnded()
  }

  private func terminate(_ termination: Termination) {
    emit(.terminated(termination))
    endProcess()
  }

  private func endProcess() {
    watchdogs.removeAll()
    driver.endProcess()
  }

  // MARK: - App calls (made from inside a job)

  /// Reports whether app calls can be made now (a live, running process).
  private func requireRunning() throws(ProcessEnded) {
    guard state.process == .running || state.process == .prewarmed, depth > 0 || loadingApp else { throw ProcessEnded() }
  }

  /// `work(seconds)`: blocks the main thread. A deadline inside it kills the app at the deadline.
  public func work(us: Int64, at: String? = nil) throws(ProcessEnded) {
    try requireRunning()
    emit(.call(.work(us: us), at: at))
    let end = clock + max(us, 0)
    if let kill = earliestKill(), kill.deadline < end {
      clock = max(clock, kill.deadline)
      terminate(kill.termination)
      throw ProcessEnded()
    }
    clock = end
  }

  /// `beginBackgroundTask(name, expiration)` → the task's id.
  public func beginBackgroundTask(name: String, at: String? = nil) throws(ProcessEnded) -> Int {
    try requireRunning()
    let id = state.tasksBegun + 1
    emit(.call(.beginBackgroundTask(name: name, task: id), at: at))
    return id
  }

  /// `endBackgroundTask(id)`; an unknown or ended id is a no-op with a note, as UIKit only logs it.
  public func endBackgroundTask(_ id: Int, at: String? = nil) throws(ProcessEnded) {
    try requireRunning()
    guard state.tasks.contains(where: { $0.id == id }) else {
      note("endBackgroundTaskIgnored", "no background task \(id) is running: the call does nothing")
      return
    }
    emit(.call(.endBackgroundTask(task: id), at: at))
  }

  /// What `UIApplication.shared.backgroundTimeRemaining` reads, in µs (nil: "suitably large", DBL_MAX).
  public var backgroundTimeRemaining_us: Int64? {
    guard state.process == .running, state.applicationState == .background, let since = state.backgroundSince else { return nil }
    return max(0, since + profile.backgroundTaskAllowance_us - clock)
  }

  public func store(key: String, value: JSONValue?, at: String? = nil) throws(ProcessEnded) {
    try requireRunning()
    emit(.call(.store(key: key, value: value), at: at))
  }

  public func log(_ message: String, at: String? = nil) throws(ProcessEnded) {
    try requireRunning()
    emit(.call(.log(message), at: at))
  }

  public func observe(_ notification: String, at: String? = nil) throws(ProcessEnded) {
    try requireRunning()
    emit(.call(.observe(notification), at: at))
  }

  /// `after(seconds, fn)` → the id the driver keys `fn` by.
  public func after(us: Int64, at: String? = nil) throws(ProcessEnded) -> Int {
    try requireRunning()
    let id = state.aftersScheduled + 1
    emit(.call(.after(us: max(us, 0), id: id), at: at))
    if let at { afterLocations[id] = at }
    return id
  }

  /// The app called a completion handler UIKit gave it. Calling one twice does nothing.
  public func complete(_ id: Int, at: String? = nil) throws(ProcessEnded) {
    try requireRunning()
    guard state.completions.contains(where: { $0.id == id }) else { return }
    emit(.call(.completion(id: id), at: at))
  }

  /// Why an app-side navigation call cannot be made (a Lua error for the app).
  public enum NavigationError: Error, Equatable {
    case processEnded
    case invalid(String)
  }

  /// `push(name)` from app code.
  public func appPush(_ cls: String, at: String? = nil) throws(NavigationError) {
    do { try requireRunning() } catch { throw .processEnded }
    guard driver.declares(controller: cls) else { throw .invalid("push: the app declares no controller \"\(cls)\"") }
    guard navigationStack() != nil else { throw .invalid("push: no navigation controller is on screen") }
    emit(.call(.push(cls), at: at))
    do { try push(cls) } catch { throw .processEnded }
  }

  public func appPop(at: String? = nil) throws(NavigationError) {
    do { try requireRunning() } catch { throw .processEnded }
    guard let stack = navigationStack(), stack.count >= 2 else { throw .invalid("pop: the navigation stack has nothing to pop") }
    emit(.call(.pop, at: at))
    do { try pop(cancelled: false) } catch { throw .processEnded }
  }

  public func appPresent(_ cls: String, style: PresentationStyle?, navigation: Bool, at: String? = nil) throws(NavigationError) {
    do { try requireRunning() } catch { throw .processEnded }
    guard driver.declares(controller: cls) else { throw .invalid("present: the app declares no controller \"\(cls)\"") }
    guard state.window != nil else { throw .invalid("present: the app has no window yet") }
    let resolved = style ?? profile.defaultPresentationStyle
    emit(.call(.present(cls, style: resolved, navigation: navigation), at: at))
    do { try present(cls, style: resolved, navigation: navigation) } catch { throw .processEnded }
  }

  public func appDismiss(at: String? = nil) throws(NavigationError) {
    do { try requireRunning() } catch { throw .processEnded }
    guard !(state.window?.presented.isEmpty ?? true) else { throw .invalid("dismiss: nothing is presented") }
    emit(.call(.dismiss, at: at))
    do { try dismiss(cancelled: false) } catch { throw .processEnded }
  }

  // MARK: - Time

  /// What can fire when nothing else runs, earliest first; ties by kind, then id.
  private enum Due {
    case protectedDataLock
    case expiration
    case after(Int)
    case completionKill(PendingCompletion)
    case allowanceKill
  }

  private func nextDue() -> (time: Int64, what: Due)? {
    let s = state
    var best: (time: Int64, rank: Int, id: Int, what: Due)?
    func offer(_ time: Int64, _ rank: Int, _ id: Int, _ what: Due) {
      if let b = best, (b.time, b.rank, b.id) <= (time, rank, id) { return }
      best = (time, rank, id, what)
    }
    if s.locked, s.protectedDataAvailable, let at = s.lockedAt { offer(at + profile.protectedDataLockDelay_us, 0, 0, .protectedDataLock) }
    if s.process == .running {
      if s.applicationState == .background, let since = s.backgroundSince, !s.tasks.isEmpty {
        let end = since + profile.backgroundTaskAllowance_us
        if s.tasks.contains(where: { !$0.expirationCalled }) {
          offer(max(since, end - profile.expirationLead_us), 1, 0, .expiration)
        }
        offer(end, 4, 0, .allowanceKill)
      }
      for a in s.afters { offer(a.due, 2, a.id, .after(a.id)) }
      for c in s.completions { offer(c.startedAt + profile.completionHandlerBudget_us, 3, c.id, .completionKill(c)) }
    }
    return best.map { ($0.time, $0.what) }
  }

  private func earliestKill() -> (deadline: Int64, termination: Termination)? {
    var best = watchdogs.min { $0.deadline < $1.deadline }.map { (deadline: $0.deadline, termination: termination($0.watchdog)) }
    let s = state
    if s.process == .running, s.applicationState == .background, let since = s.backgroundSince,
       let task = s.tasks.first {
      let end = since + profile.backgroundTaskAllowance_us
      if best == nil || end < best!.deadline { best = (end, allowanceTermination(task)) }
    }
    for c in s.completions {
      let end = c.startedAt + profile.completionHandlerBudget_us
      if best == nil || end < best!.deadline { best = (end, completionTermination(c)) }
    }
    return best
  }

  private func termination(_ watchdog: Watchdog) -> Termination {
    switch watchdog {
    case .launch:
      return Termination(reason: .watchdog, code: "0x8badf00d",
        description: "scene-create watchdog transgression: exhausted real (wall clock) time allowance of \(VirtualTime.formatSeconds2(profile.launchWatchdog_us)) seconds")
    case let .didEnterBackground(callback):
      return Termination(reason: .watchdog, code: "0x8badf00d",
        description: "\(callback.signature) did not return: exhausted real (wall clock) time allowance of \(VirtualTime.formatSeconds2(profile.didEnterBackgroundBudget_us)) seconds")
    case .willTerminate:
      return Termination(reason: .user, code: nil,
        description: "applicationWillTerminate(_:) did not return within \(VirtualTime.formatSeconds2(profile.willTerminateBudget_us)) seconds; the process was ended")
    case let .foregroundHang(name):
      return Termination(reason: .watchdog, code: "0x8badf00d",
        description: "scene-update watchdog transgression: \(name) blocked the main thread; exhausted real (wall clock) time allowance of \(VirtualTime.formatSeconds2(profile.foregroundHangLimit_us)) seconds")
    }
  }

  private func allowanceTermination(_ task: BackgroundTask) -> Termination {
    Termination(reason: .backgroundTaskExpired, code: "0x2182bad2",
                description: "background task \"\(task.name)\" (\(task.id)) was not ended: exhausted background time allowance of \(VirtualTime.formatSeconds2(profile.backgroundTaskAllowance_us)) seconds")
  }

  private func completionTermination(_ c: PendingCompletion) -> Termination {
    Termination(reason: .backgroundTaskExpired, code: c.callback == .performFetchWithCompletionHandler ? "0x2182bad4" : "0x2182bad2",
                description: "\(c.callback.signature) did not call its completion handler within \(VirtualTime.formatSeconds2(profile.completionHandlerBudget_us)) seconds")
  }

  private func fire(_ due: Due) throws(ProcessEnded) {
    switch due {
    case .protectedDataLock:
      try protectedData(available: false)
    case .expiration:
      for task in state.tasks where !task.expirationCalled {
        let target = "BackgroundTask#\(task.id)"
        let handled = driver.implements(.expirationHandler, target: target)
        emit(.callback(.expirationHandler, target: target, handled: handled, depth: depth, url: nil, completion: nil))
        if handled { try runApp(.expiration(task: task.id), name: Callback.expirationHandler.signature, target: target) }
      }
    case let .after(id):
      let scheduledAt = afterLocations.removeValue(forKey: id)
      afterBlocksThisVerb += 1
      if afterBlocksThisVerb > Self.afterBlocksPerVerbMax {
        runaway = ScenarioError("the app's main thread never goes idle: more than \(Self.afterBlocksPerVerbMax) blocks "
          + "scheduled with after ran during this verb, the last scheduled at \(scheduledAt ?? "an unknown line") "
          + "(a block that schedules itself again?)")
        return
      }
      let target = "after#\(id)"
      emit(.callback(.asyncAfter, target: target, handled: true, depth: depth, url: nil, completion: nil))
      try runApp(.after(id: id), name: Callback.asyncAfter.signature, target: target)
    case let .completionKill(c):
      terminate(completionTermination(c))
    case .allowanceKill:
      if let task = state.tasks.first { terminate(allowanceTermination(task)) }
    }
  }

  /// Runs what is due by now, then suspends the app if nothing keeps it running.
  private func settle() {
    while runaway == nil, let next = nextDue(), next.time <= clock {
      do { try fire(next.what) } catch {}
    }
    suspendIfIdle()
  }

  private func suspendIfIdle() {
    let s = state
    if s.process == .running, s.applicationState == .background, s.tasks.isEmpty, s.completions.isEmpty, depth == 0 {
      emit(.suspended)
    }
  }

  /// `advance(seconds)`: lets virtual time pass, firing what falls due in order.
  private func advance(_ us: Int64) {
    let target = clock + max(us, 0)
    suspendIfIdle()
    while runaway == nil, let next = nextDue(), next.time <= target {
      clock = max(clock, next.time)
      do { try fire(next.what) } catch {}
      suspendIfIdle()
    }
    clock = max(clock, target)
  }
}
