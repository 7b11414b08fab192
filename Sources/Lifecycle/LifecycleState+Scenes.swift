// The scene child state: the connected scenes, their windows and the controllers in them, and
// how `evolve` folds the scene and view-controller events into it (docs/model.md §1).

extension LifecycleState {
  // MARK: - Derived

  /// The scene the user sees and the screen verbs act on: the last one connected.
  public var frontScene: SceneState? { scenes.last }

  /// The window the screen verbs act on: a sceneless app's own, else the front scene's.
  public var frontWindow: ViewControllerTree? { applicationWindow ?? scenes.last?.window }

  /// The scene a view-controller event names: none (the app's only window) until the app has
  /// had several scenes at once, so a one-scene log never names one.
  public var sceneNamedInEvents: String? { severalScenesSeen ? scenes.last?.label : nil }

  /// Controllers whose views are in scene `label`'s window (nil: the front window), parents first.
  public func visibleControllers(in label: String?) -> [Int] {
    guard let label else { return visibleControllers }
    return scenes.first { $0.label == label }?.window?.visibleControllers ?? []
  }

  /// The controller on top of everything in the front window.
  public var topController: Int? { frontWindow?.topController }

  /// Controllers whose views are in the front window, parents first.
  public var visibleControllers: [Int] { frontWindow?.visibleControllers ?? [] }

  /// Every view-controller instance in every window, loaded or not, window by window
  /// (`ViewControllerTree.allControllers`): the application window, then the scenes in order.
  public var windowControllers: [Int] {
    ([applicationWindow] + scenes.map(\.window)).reduce(into: []) { out, window in out += window?.allControllers ?? [] }
  }

  /// The windows' controllers whose views are loaded, in `windowControllers` order.
  public var loadedControllers: [Int] { windowControllers.filter { controllers[$0]?.viewLoaded == true } }

  /// The scene a callback was delivered for: the one it names, else a scene delegate's front
  /// scene (the app's only one) or the scene whose window holds the controller.
  func sceneOfCall(_ cb: Callback, target: String, named: String?) -> String? {
    switch cb.receiver {
    case .sceneDelegate: return named ?? frontScene?.label
    case .viewController: return scene(holding: target)
    default: return nil
    }
  }

  /// The scene whose window holds controller `label` (nil: none, or a sceneless app's window).
  public func scene(holding label: String) -> String? {
    guard let id = controllerIDs[label] else { return nil }
    return scenes.first { $0.window?.allControllers.contains(id) == true }?.label
  }

  /// The scene a callback target belongs to: for `SceneDelegate` the scene its latest call was
  /// for (else the front one), for a controller the scene whose window holds it; nil otherwise.
  public func scene(ofTarget target: String) -> String? {
    target == "SceneDelegate" ? sceneOfLastSceneDelegateCall ?? frontScene?.label : scene(holding: target)
  }

  /// Whether scene `label` is connected.
  public func isConnected(_ label: String) -> Bool { scenes.contains { $0.label == label } }

  /// The connected scenes in the foreground, served frontmost first, then by number (an input
  /// that reaches several scenes delivers to them in this order).
  public var foregroundScenesInServiceOrder: [SceneState] { scenesInServiceOrder.filter { $0.activation.isForeground } }

  /// Every connected scene, frontmost first, then by number.
  public var scenesInServiceOrder: [SceneState] {
    guard let front = frontScene else { return [] }
    return [front] + scenes.dropLast().sorted { (InstanceLabel.number($0.label) ?? 0) < (InstanceLabel.number($1.label) ?? 0) }
  }

  /// `UIApplication.applicationState` as the scenes make it: the most active scene's, background
  /// with none in the foreground; nil with no scene connected.
  public var sceneAggregate: ApplicationState? {
    if scenes.isEmpty { return nil }
    if scenes.contains(where: { $0.activation == .foregroundActive }) { return .active }
    if scenes.contains(where: { $0.activation == .foregroundInactive }) { return .inactive }
    return .background
  }

  // MARK: - Folding scene events

  /// An activation request (or `focus`) for session `n`: a connected scene comes to the front; an
  /// unattached session becomes the next to reconnect (`sessionToReconnect`).
  mutating func activateSession(_ n: Int) {
    if let scene = session(numbered: n)?.scene { return bringToFront(scene) }
    moveSessionToFront(n)
  }

  /// Scene `label` comes to the front (the last of `scenes`, its session the last of `sessions`):
  /// `focus`, Split View, an activation request.
  mutating func bringToFront(_ label: String) {
    guard let i = scenes.firstIndex(where: { $0.label == label }) else { return }
    scenes.append(scenes.remove(at: i))
    if let n = session(ofScene: label)?.number { moveSessionToFront(n) }
  }

  mutating func connectScene(_ label: String, session: Int?) {
    scenes.append(SceneState(label: label))
    scenesConnected += 1
    if scenes.count > 1 { severalScenesSeen = true }
    attachSession(to: label, number: session)
  }

  /// The scene, its delegate and its window's controllers are released with it; its session stays.
  mutating func disconnectScene(_ label: String) {
    guard let i = scenes.firstIndex(where: { $0.label == label }) else { return }
    scenes.remove(at: i).window?.allControllers.forEach { dropController($0) }
    detachSession(of: label)
    openings.pendingHandoff = nil
  }

  mutating func changeScene(_ label: String, _ change: (inout SceneState) -> Void) {
    if let i = scenes.firstIndex(where: { $0.label == label }) { change(&scenes[i]) }
  }

  /// Changes the window a view-controller event names: that scene's, or with no name the app's
  /// only window (a sceneless app's own, else its one scene's).
  mutating func changeWindow(of scene: String?, _ change: (inout ViewControllerTree?) -> Void) {
    if let scene {
      changeScene(scene) { change(&$0.window) }
    } else if scenes.isEmpty {
      change(&applicationWindow)
    } else {
      change(&scenes[scenes.count - 1].window)
    }
  }

  mutating func buildRoot(_ container: Container, navigation: Bool, _ labels: [String], scene: String?) {
    let ids = labels.map { makeController($0) }
    let tree = ViewControllerTree(container: container, tabs: container == .tabs ? ids.map { [$0] } : [ids], navigation: navigation)
    changeWindow(of: scene) { $0 = tree }
    rotationPending = false  // a new root starts with the current traits
  }

  mutating func push(_ label: String, scene: String?) {
    let id = makeController(label)
    changeWindow(of: scene) { $0?.pushOnTop(id) }
  }

  mutating func pop(_ label: String, scene: String?) {
    guard let id = controllerIDs[label] else { return }
    changeWindow(of: scene) { $0?.popFromTop(id) }
    dropController(id)
  }

  mutating func present(_ label: String, style: PresentationStyle, navigation: Bool, scene: String?) {
    let id = makeController(label)
    changeWindow(of: scene) { $0?.presented.append(Presentation(stack: [id], style: style, navigation: navigation)) }
  }

  mutating func dismiss(scene: String?) {
    var level: Presentation?
    changeWindow(of: scene) { level = $0?.presented.popLast() }
    level?.stack.forEach { dropController($0) }
  }

  private mutating func makeController(_ label: String) -> Int {
    controllersCreated += 1
    let id = controllersCreated
    let className = InstanceLabel.className(label)
    instancesPerClass[className, default: 0] += 1
    controllers[id] = Controller(id: id, className: className, label: label)
    controllerIDs[label] = id
    return id
  }

  private mutating func dropController(_ id: Int) {
    if let c = controllers.removeValue(forKey: id) { controllerIDs[c.label] = nil }
  }
}

extension LifecycleState {
  /// The scene an export groups a callback target's track under: none while the app has had one
  /// scene at a time (its exports keep one `SceneDelegate` track); else the scene whose window
  /// holds the controller, or for `SceneDelegate` the scene its latest call was for.
  public func exportSceneGroup(of target: String) -> String? {
    severalScenesSeen ? scene(ofTarget: target) : nil
  }
}
