// The verb table's rows for an iPad's windows (docs/model.md §19): a new window, closing one,
// focus, Split View and its divider. Each is refused on an iPhone, on an iPad without scenes,
// and a second window without `multipleScenes`.

extension VerbRule {
  /// The scene verbs need an iPad whose app uses scenes.
  func needWindows() throws(ScenarioError) {
    if profile.device != .ipad { throw fail("windows are an iPad's: declare scenario { device = \"ipad\" }") }
    if !profile.scenes { throw fail("windows are scenes: this iPad app has none (scenes = false)") }
  }

  /// `Scene#n` is connected; its label.
  @discardableResult
  func needConnected(_ n: Int) throws(ScenarioError) -> String {
    let label = SceneState.label(number: n)
    guard state.isConnected(label) else {
      let connected = state.scenes.map(\.label).sorted().joined(separator: ", ")
      throw fail("\(label) is not connected (connected: \(connected.isEmpty ? "none" : connected))")
    }
    return label
  }
}

extension VerbSpec {
  static let openWindow = VerbSpec(
    "open_window", [.options([VerbOption("activity", .string(.activityTypes)), VerbOption("from", .scene)])],
    doc: "iPad: the user opens a new window of the app (a new scene, frontmost); from: the scene acted in",
    make: { a in .openWindow(activity: a.text("activity"), from: a.number("from").map { Int($0) }) },
    refusal: { r throws(ScenarioError) in
      try r.needWindows()
      try r.needActive()
      if case let .openWindow(_, from?) = r.input { try r.needConnected(from) }
      if !r.profile.multipleScenes { throw r.fail("a second window needs app { multipleScenes = true }") }
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .openWindow(activity, _) = input else { return }
      try sim.openWindow(activity: activity)
    },
    traceText: { input in
      guard case let .openWindow(activity, from) = input else { return "open_window" }
      return "open_window" + (activity.map { " activity=\($0)" } ?? "") + (from.map { " from=\(SceneState.label(number: $0))" } ?? "")
    })

  static let closeWindow = VerbSpec(
    "close_window", [.scene(key: "scene", expected: "a scene number (1 names Scene#1)")],
    doc: "iPad: the user closes a window: sceneDidDisconnect, then its session is discarded",
    make: { a in a.number("scene").map { .closeWindow(Int($0)) } },
    refusal: { r throws(ScenarioError) in
      try r.needWindows()
      guard case let .closeWindow(n) = r.input else { return }
      try r.needConnected(n)
      if r.state.locked { throw r.fail("the device is locked") }
      if r.state.interruption != nil { throw r.fail("an interruption is in progress") }
    },
    sequence: { input, sim throws(ProcessEnded) in
      if case let .closeWindow(n) = input { try sim.closeWindow(SceneState.label(number: n)) }
    },
    traceText: { input in
      guard case let .closeWindow(n) = input else { return "close_window" }
      return "close_window \(SceneState.label(number: n))"
    })

  static let focus = VerbSpec(
    "focus", [.scene(key: "scene", expected: "a scene number (1 names Scene#1)")],
    doc: "iPad: a window comes frontmost; the previous one goes to the background (not with ipadWindowing26)",
    make: { a in a.number("scene").map { .focus(Int($0)) } },
    refusal: { r throws(ScenarioError) in
      try r.needWindows()
      guard case let .focus(n) = r.input else { return }
      let label = try r.needConnected(n)
      try r.needReachable()
      guard r.state.process == .running || r.state.process == .suspended else { throw r.fail("the app is not running") }
      if r.state.frontScene?.label == label, r.state.frontScene?.activation == .foregroundActive {
        throw r.fail("\(label) is already frontmost")
      }
    },
    sequence: { input, sim throws(ProcessEnded) in
      if case let .focus(n) = input { try sim.focus(SceneState.label(number: n)) }
    },
    deviceChange: { input, s in
      if case let .focus(n) = input { s.bringToFront(SceneState.label(number: n)) }
    },
    traceText: { input in
      guard case let .focus(n) = input else { return "focus" }
      return "focus \(SceneState.label(number: n))"
    })

  static let sideBySide = VerbSpec(
    "side_by_side", [.scene(key: "a", expected: "a scene number (1 names Scene#1)"),
                     .scene(key: "b", expected: "a scene number (1 names Scene#1)")],
    doc: "iPad: Split View: both windows foreground active, b frontmost; any other goes to the background",
    make: { a in
      guard let x = a.number("a"), let y = a.number("b") else { return nil }
      return .sideBySide(Int(x), Int(y))
    },
    refusal: { r throws(ScenarioError) in
      try r.needWindows()
      guard case let .sideBySide(a, b) = r.input else { return }
      if a == b { throw r.fail("Split View needs two different scenes") }
      try r.needConnected(a)
      try r.needConnected(b)
      try r.needReachable()
      guard r.state.process == .running || r.state.process == .suspended else { throw r.fail("the app is not running") }
    },
    sequence: { input, sim throws(ProcessEnded) in
      if case let .sideBySide(a, b) = input { try sim.sideBySide(SceneState.label(number: a), SceneState.label(number: b)) }
    },
    deviceChange: { input, s in
      guard case let .sideBySide(a, b) = input else { return }
      s.bringToFront(SceneState.label(number: a))
      s.bringToFront(SceneState.label(number: b))
    },
    traceText: { input in
      guard case let .sideBySide(a, b) = input else { return "side_by_side" }
      return "side_by_side \(SceneState.label(number: a)) \(SceneState.label(number: b))"
    })

  static let dragDivider = plain(
    "drag_divider", .dragDivider, doc: "iPad: the Split View divider moves: each visible scene resigns, resizes, becomes active again",
    refusal: { r throws(ScenarioError) in
      try r.needWindows()
      try r.needActive()
      if r.state.scenes.filter(\.activation.isForeground).count < 2 { throw r.fail("no Split View: side_by_side(a, b) first") }
    },
    sequence: { _, sim throws(ProcessEnded) in try sim.dragDivider() })
}
