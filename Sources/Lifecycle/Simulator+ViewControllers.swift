// UIKit's sequences for view controllers: the root, appearance, rotation, navigation,
// presentation and tabs.

extension Simulator {
  // MARK: - View controllers

  /// Builds the window's root from the app's layout: transition, then init(coder:) for each root.
  func buildRoot() throws(ProcessEnded) {
    var labels: [String] = []
    var counts: [String: Int] = [:]
    for cls in layout.roots {
      counts[cls, default: state.instancesPerClass[cls] ?? 0] += 1
      labels.append("\(cls)#\(counts[cls]!)")
    }
    let navigation = layout.container == .navigation || (layout.container == .tabs && layout.tabsHaveNavigation)
    emit(.rootBuilt(container: layout.container, navigation: navigation, controllers: labels, scene: state.sceneNamedInEvents))
    for label in labels { try deliver(.`init`, label) }
  }

  func nextLabel(_ cls: String) -> String { "\(cls)#\((state.instancesPerClass[cls] ?? 0) + 1)" }

  /// The stack a push goes on, if a navigation controller is on top.

  func loadView(_ id: Int) throws(ProcessEnded) {
    guard state.controllers[id]?.viewLoaded == false else { return }
    try deliver(.loadView, state.label(id))
    try deliver(.viewDidLoad, state.label(id))
  }

  /// viewWillAppear → viewIsAppearing (iOS ≥ 13) → updateProperties (iOS ≥ 26) → layout.
  /// `animated` is what the appearance callbacks receive: false at launch and for a tab switch,
  /// true for push, pop and modal presentations (interactive ones included).
  /// A controller that was hidden during a rotation gets willTransition(to:with:) first, its new
  /// traits once its view is back in the window (before viewIsAppearing), and a layout pass for
  /// its new size even where the appearance has none otherwise (`layout: false`).
  func beginAppearance(_ id: Int, animated: Bool, layout doLayout: Bool = true) throws(ProcessEnded) {
    let label = state.label(id)
    let rotatedWhileHidden = state.controllers[id]?.traitsStale == true
    if rotatedWhileHidden { try deliver(.willTransitionToTraitCollection, label) }
    try deliver(.viewWillAppear, label, animated: animated)
    if rotatedWhileHidden { try deliver(.traitCollectionDidChange, label) }
    if profile.viewIsAppearing { try deliver(.viewIsAppearing, label, animated: animated) }
    if doLayout || rotatedWhileHidden { try layoutPass(label) }
  }

  func layoutPass(_ label: String) throws(ProcessEnded) {
    if profile.updateProperties { try deliver(.updateProperties, label) }
    try deliver(.viewWillLayoutSubviews, label)
    try deliver(.viewDidLayoutSubviews, label)
  }

  func deliverRotation() throws(ProcessEnded) {
    let visible = inPlace({ $0.visibleControllers })
    for id in visible { try deliver(.willTransitionToTraitCollection, state.label(id)) }
    for id in visible { try deliver(.viewWillTransitionToSize, state.label(id)) }
    for id in visible { try deliver(.traitCollectionDidChange, state.label(id)) }
    for id in visible {
      try deliver(.viewWillLayoutSubviews, state.label(id))
      try deliver(.viewDidLayoutSubviews, state.label(id))
    }
  }

  func push(_ cls: String) throws(ProcessEnded) {
    guard let a = inPlace({ $0.topController }) else { return }
    let b = nextLabel(cls)
    emit(.pushed(b, scene: state.sceneNamedInEvents))
    try deliver(.`init`, b)
    guard let bid = state.controllerIDs[b] else { return }
    try loadView(bid)
    try deliver(.viewWillDisappear, state.label(a), animated: true)
    try beginAppearance(bid, animated: true)
    try deliver(.viewDidDisappear, state.label(a), animated: true)
    try deliver(.viewDidAppear, b, animated: true)
  }

  /// pop(), swipe_back{} (completed), or swipe_back{cancel = true}.
  func pop(cancelled: Bool) throws(ProcessEnded) {
    guard let stack = inPlace({ $0.navigationStack }), stack.count >= 2 else { return }
    let b = state.label(stack[stack.count - 1]), aID = stack[stack.count - 2], a = state.label(aID)
    try deliver(.viewWillDisappear, b, animated: true)
    if cancelled {
      try beginAppearance(aID, animated: true, layout: false)
      try deliver(.viewWillDisappear, a, animated: true)
      try deliver(.viewDidDisappear, a, animated: true)
      try deliver(.viewWillAppear, b, animated: true)
      if profile.viewIsAppearing { try deliver(.viewIsAppearing, b, animated: true) }
      try deliver(.viewDidAppear, b, animated: true)
      return
    }
    try beginAppearance(aID, animated: true)
    try deliver(.viewDidDisappear, b, animated: true)
    emit(.popped(b, scene: state.sceneNamedInEvents))
    try deliver(.viewDidAppear, a, animated: true)
  }

  func present(_ cls: String, style: PresentationStyle, navigation: Bool) throws(ProcessEnded) {
    let hidden = style.removesPresenter ? Array(inPlace({ $0.visibleControllers }).reversed()) : []
    let b = nextLabel(cls)
    emit(.presented(b, style: style, navigation: navigation, scene: state.sceneNamedInEvents))
    try deliver(.`init`, b)
    guard let bid = state.controllerIDs[b] else { return }
    try loadView(bid)
    for id in hidden { try deliver(.viewWillDisappear, state.label(id), animated: true) }
    try beginAppearance(bid, animated: true)
    try deliver(.viewDidAppear, b, animated: true)
    for id in hidden { try deliver(.viewDidDisappear, state.label(id), animated: true) }
  }

  /// dismiss(), swipe_down{} (completed), or swipe_down{cancel = true}.
  func dismiss(cancelled: Bool) throws(ProcessEnded) {
    guard let level = inPlace({ $0.frontWindow })?.presented.last, let bid = level.stack.last else { return }
    let b = state.label(bid)
    try deliver(.viewWillDisappear, b, animated: true)
    if cancelled {
      try deliver(.viewWillAppear, b, animated: true)
      if profile.viewIsAppearing { try deliver(.viewIsAppearing, b, animated: true) }
      try deliver(.viewDidAppear, b, animated: true)
      return
    }
    var revealed: [Int] = []
    if level.style.removesPresenter, var w = inPlace({ $0.frontWindow }) {
      w.presented.removeLast()
      revealed = w.visibleControllers
    }
    // The presenter's view comes back as it was: laid out again only if its size changed.
    for id in revealed { try beginAppearance(id, animated: true, layout: false) }
    for id in revealed { try deliver(.viewDidAppear, state.label(id), animated: true) }
    try deliver(.viewDidDisappear, b, animated: true)
    emit(.dismissed(b, scene: state.sceneNamedInEvents))
  }

  func selectTab(_ index: Int) throws(ProcessEnded) {
    guard let a = inPlace({ $0.topController }), let w = inPlace({ $0.frontWindow }), let bid = w.tabs[index - 1].last else { return }
    emit(.tabSelected(index: index, controller: state.label(bid), scene: state.sceneNamedInEvents))
    try loadView(bid)
    try beginAppearance(bid, animated: false)
    try deliver(.viewWillDisappear, state.label(a), animated: false)
    try deliver(.viewDidDisappear, state.label(a), animated: false)
    try deliver(.viewDidAppear, state.label(bid), animated: false)
  }
}

extension Simulator {
  // MARK: - The app's own navigation calls (checked, recorded, then performed as the verbs are)

  func pushForApp(_ cls: String, at: String?) throws {
    guard driver.declares(controller: cls) else { throw AppCallError.invalid("push: the app declares no controller \"\(cls)\"") }
    guard inPlace({ $0.navigationStack != nil }) else { throw AppCallError.invalid("push: no navigation controller is on screen") }
    emit(.appCalled(.push(cls), at: at))
    try push(cls)
  }

  func popForApp(at: String?) throws {
    guard let stack = inPlace({ $0.navigationStack }), stack.count >= 2 else {
      throw AppCallError.invalid("pop: the navigation stack has nothing to pop")
    }
    emit(.appCalled(.pop, at: at))
    try pop(cancelled: false)
  }

  func presentForApp(_ cls: String, style: PresentationStyle?, navigation: Bool, at: String?) throws {
    guard driver.declares(controller: cls) else { throw AppCallError.invalid("present: the app declares no controller \"\(cls)\"") }
    guard inPlace({ $0.frontWindow != nil }) else { throw AppCallError.invalid("present: the app has no window yet") }
    let resolved = style ?? profile.defaultPresentationStyle
    emit(.appCalled(.present(cls, style: resolved, navigation: navigation), at: at))
    try present(cls, style: resolved, navigation: navigation)
  }

  func dismissForApp(at: String?) throws {
    guard inPlace({ !($0.frontWindow?.presented.isEmpty ?? true) }) else { throw AppCallError.invalid("dismiss: nothing is presented") }
    emit(.appCalled(.dismiss, at: at))
    try dismiss(cancelled: false)
  }
}
