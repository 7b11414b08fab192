/// One view-controller instance (`NoteList#2`).
public struct Controller: Equatable, Sendable {
  public var id: Int
  public var className: String
  public var label: String
  public var viewLoaded = false
  public var appearance: Appearance = .disappeared
  /// The device rotated while this loaded controller was hidden: when it returns it gets the
  /// trait transition and a layout pass at its new size (T24; docs/decisions.md, rotation while hidden).
  public var traitsStale = false
}

/// A modally presented level: its controllers (a stack when it is a navigation controller).
public struct Presentation: Equatable, Sendable {
  public var stack: [Int]
  public var style: PresentationStyle
  public var navigation: Bool
}

/// A UIWindow's view-controller tree: its root container, the stacks under it and what is
/// presented over them. Controllers are named by id (`LifecycleState.controllers`).
public struct ViewControllerTree: Equatable, Sendable {
  public var container: Container
  /// One stack per tab (one stack in all without a tab bar). A stack grows only in a navigation controller.
  public var tabs: [[Int]]
  /// Whether the root stacks are navigation controllers.
  public var navigation: Bool
  /// 0-based.
  public var selectedTab = 0
  /// Modal presentations, bottom to top.
  public var presented: [Presentation] = []

  public init(container: Container, tabs: [[Int]], navigation: Bool) {
    self.container = container; self.tabs = tabs; self.navigation = navigation
  }

  /// The controller on top of everything: the last presented level's top, or the selected tab's top.
  public var topController: Int? {
    if let p = presented.last { return p.stack.last }
    return tabs[selectedTab].last
  }

  /// Controllers whose views are in the window, parents first.
  public var visibleControllers: [Int] {
    var out: [Int] = []
    if let top = tabs[selectedTab].last { out.append(top) }
    for p in presented {
      if p.style.removesPresenter { out.removeAll() }
      if let top = p.stack.last { out.append(top) }
    }
    return out
  }

  /// Every view-controller instance in the tree, loaded or not: each tab's stack bottom to
  /// top, tabs in order, then the presented levels bottom to top.
  public var allControllers: [Int] {
    var out: [Int] = []
    for stack in tabs { out += stack }
    for p in presented { out += p.stack }
    return out
  }

  /// The top stack (the last presented level's, else the selected tab's) gains a controller.
  mutating func pushOnTop(_ id: Int) {
    if let last = presented.indices.last { presented[last].stack.append(id) } else { tabs[selectedTab].append(id) }
  }

  /// The top stack loses a controller.
  mutating func popFromTop(_ id: Int) {
    if let last = presented.indices.last { presented[last].stack.removeAll { $0 == id } } else { tabs[selectedTab].removeAll { $0 == id } }
  }
}

/// One scene connected to the process (a `UIWindowScene` with its delegate): dies with the
/// process or when UIKit disconnects it. Its session is not here: a session outlives the scene.
public struct SceneState: Equatable, Sendable {
  /// `Scene#n`: scenes are numbered in connection order over the whole run, relaunches included.
  public var label: String
  public var activation: SceneActivation = .unattached
  /// Its UIWindow's controllers; nil until the root is built (at the connection).
  public var window: ViewControllerTree?

  public init(label: String, activation: SceneActivation = .unattached, window: ViewControllerTree? = nil) {
    self.label = label; self.activation = activation; self.window = window
  }

  /// The label of the `n`th scene to connect in a run (1-based).
  public static func label(number n: Int) -> String { SceneID(number: n).description }

  /// The label app code sees on a scene object while no scene is connected.
  public static let unconnectedLabel = label(number: 0)
}
