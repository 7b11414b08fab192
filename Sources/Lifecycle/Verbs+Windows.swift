// The verb table's rows for an iPad's windows (docs/model.md §19): a new window, closing one,
// focus, Split View and its divider. Each is refused on an iPhone, on an iPad without scenes,
// and a second window without `multipleScenes`.

extension VerbRule {
  /// The scene verbs need an iPad whose app uses scenes.
  func needWindows() throws(ScenarioError) {
    if profile.device != .ipad { throw fail("windows are an iPad's: declare scenario { device = \"ipad\" }") }
    if !profile.scenes { throw fail("windows are scenes: this iPad app has none (scenes = false)") }
  }

  /// Window `n` is open (its session is kept); the session.
  @discardableResult
  func needWindow(_ n: Int) throws(ScenarioError) -> SceneSession {
    guard let session = state.session(numbered: n) else { throw fail("no window \(n) is open (open: \(state.openWindowsText))") }
    return session
  }

  /// Window `n` is open and its scene connected; the scene's label.
  @discardableResult
  func needConnectedWindow(_ n: Int) throws(ScenarioError) -> String {
    guard let label = try needWindow(n).scene else {
      throw fail("window \(n)'s scene is not connected (focus(\(n)) reconnects it)")
    }
    return label
  }
}

extension VerbSpec {
  /// What a window verb's number names, as an argument error says it.
  static let windowNumber = "a window number (1 names the window Scene#1 opened)"

  static let openWindow = VerbSpec(
    "open_window", [.options([VerbOption("activity", .string(.activityTypes)), VerbOption("from", .scene)])],
    doc: "iPad: the user opens a new window of the app (a new scene, frontmost); from: the scene acted in",
    make: { a in .openWindow(activity: a.text("activity"), from: a.number("from").map { Int($0) }) },
    refusal: { r throws(ScenarioError) in
      try r.needWindows()
      try r.needActive()
      if case let .openWindow(_, from?) = r.input { try r.needConnectedWindow(from) }
      if !r.profile.multipleScenes { throw r.fail("a second window needs app { multipleScenes = true }") }
      if r.state.sessions.count >= LifecycleState.sessionsMax {
        throw r.fail("the app keeps \(LifecycleState.sessionsMax) windows, the most lifesim models: close_window(n) one first")
      }
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .openWindow(activity, _) = input else { return }
      try sim.openWindow(activity: activity)
    },
    traceText: { input in
      guard case let .openWindow(activity, from) = input else { return "open_window" }
      return "open_window" + (activity.map { " activity=\($0)" } ?? "") + (from.map { " from=\($0)" } ?? "")
    })

  static let closeWindow = VerbSpec(
    "close_window", [.scene(key: "scene", expected: VerbSpec.windowNumber)],
    doc: "iPad: the user closes window n: sceneDidDisconnect, then its session is discarded with its restoration activity",
    make: { a in a.number("scene").map { .closeWindow(Int($0)) } },
    refusal: { r throws(ScenarioError) in
      try r.needWindows()
      guard case let .closeWindow(n) = r.input else { return }
      try r.needWindow(n)
      if r.state.locked { throw r.fail("the device is locked") }
      if r.state.interruption != nil { throw r.fail("an interruption is in progress") }
    },
    sequence: { input, sim throws(ProcessEnded) in
      if case let .closeWindow(n) = input { try sim.closeWindow(session: n) }
    },
    traceText: { input in
      guard case let .closeWindow(n) = input else { return "close_window" }
      return "close_window \(n)"
    })

  static let focus = VerbSpec(
    "focus", [.scene(key: "scene", expected: VerbSpec.windowNumber)],
    doc: "iPad: window n comes frontmost (its scene reconnects if it was released); the previous one goes to the background (not with ipadWindowing26)",
    make: { a in a.number("scene").map { .focus(Int($0)) } },
    refusal: { r throws(ScenarioError) in
      try r.needWindows()
      guard case let .focus(n) = r.input else { return }
      try r.needReachable()
      guard let label = try r.needWindow(n).scene else { return }
      guard r.state.process == .running || r.state.process == .suspended else { throw r.fail("the app is not running") }
      if r.state.frontScene?.label == label, r.state.frontScene?.activation == .foregroundActive {
        throw r.fail("window \(n) (\(label)) is already frontmost")
      }
    },
    sequence: { input, sim throws(ProcessEnded) in
      if case let .focus(n) = input { try sim.focus(session: n) }
    },
    deviceChange: { input, s in
      if case let .focus(n) = input { s.activateSession(n) }
    },
    // The user brings a window forward, as `launch()` brings the app: a processing task ends.
    userTakesDevice: { _ in true },
    traceText: { input in
      guard case let .focus(n) = input else { return "focus" }
      return "focus \(n)"
    })

  static let sideBySide = VerbSpec(
    "side_by_side", [.scene(key: "a", expected: VerbSpec.windowNumber), .scene(key: "b", expected: VerbSpec.windowNumber)],
    doc: "iPad: Split View: both windows foreground active, b frontmost; any other goes to the background",
    make: { a in
      guard let x = a.number("a"), let y = a.number("b") else { return nil }
      return .sideBySide(Int(x), Int(y))
    },
    refusal: { r throws(ScenarioError) in
      try r.needWindows()
      guard case let .sideBySide(a, b) = r.input else { return }
      if a == b { throw r.fail("Split View needs two different windows") }
      try r.needConnectedWindow(a)
      try r.needConnectedWindow(b)
      try r.needReachable()
      guard r.state.process == .running || r.state.process == .suspended else { throw r.fail("the app is not running") }
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .sideBySide(a, b) = input, let x = sim.state.session(numbered: a)?.scene,
            let y = sim.state.session(numbered: b)?.scene else { return }
      try sim.sideBySide(x, y)
    },
    deviceChange: { input, s in
      guard case let .sideBySide(a, b) = input else { return }
      s.activateSession(a)
      s.activateSession(b)
    },
    traceText: { input in
      guard case let .sideBySide(a, b) = input else { return "side_by_side" }
      return "side_by_side \(a) \(b)"
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
