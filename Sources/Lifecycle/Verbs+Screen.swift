// The verb table's rows for what the user does on the screen: rotation, navigation,
// presentation, tabs, interactive swipes and the app's own user actions.

extension VerbSpec {
  static let rotate = choosing(
    "rotate", key: "orientation", Orientation.self, doc: "trait and size transitions, then layout", Input.rotate,
    refusal: { r throws(ScenarioError) in
      if case let .rotate(o) = r.input, o == r.state.orientation { throw r.fail("the device is already \(o.rawValue)") }
    },
    sequence: { _, sim throws(ProcessEnded) in
      if sim.inPlace({ $0.isForeground }) { try sim.deliverRotation() }
    },
    deviceChange: { input, s in
      guard case let .rotate(o) = input else { return }
      s.orientation = o
      s.rotationPending = !s.isForeground && s.process != .notRunning
      let visible = Set(s.visibleControllers)
      for id in s.loadedControllers where !visible.contains(id) { s.controllers[id]?.traitsStale = true }
    })

  static let push = VerbSpec(
    "push", [.string(key: "class", expected: "a controller name", domain: .controllers)],
    doc: "push a declared controller on the navigation controller on screen",
    make: { a in a.text("class").map(Input.push) },
    refusal: { r throws(ScenarioError) in
      guard case let .push(name) = r.input else { return }
      try r.needActive()
      try r.needDeclared(name)
      guard r.inPlace({ $0.navigationStack }) != nil else { throw r.fail("no navigation controller is on screen") }
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .push(name) = input else { return }
      try sim.push(name)
    },
    simpler: { input, domain in
      guard case let .push(name) = input else { return [] }
      return domain.controllers.prefix { $0 != name }.map(Input.push)
    })

  static let pop = plain(
    "pop", .pop, doc: "pop the top of the navigation stack",
    refusal: { r throws(ScenarioError) in
      try r.needActive()
      guard let stack = r.inPlace({ $0.navigationStack }), stack.count >= 2 else { throw r.fail("the navigation stack has nothing to pop") }
    },
    sequence: { _, sim throws(ProcessEnded) in try sim.pop(cancelled: false) })

  static let present = VerbSpec(
    "present", [.string(key: "class", expected: "a controller name", domain: .controllers),
                .options([VerbOption("style", .choice(PresentationStyle.words)), VerbOption("navigation", .flag)])],
    doc: "present a declared controller modally, optionally in a navigation controller",
    make: { a in a.text("class").map { .present($0, style: a.choice("style", PresentationStyle.self), navigation: a.flag("navigation")) } },
    refusal: { r throws(ScenarioError) in
      guard case let .present(name, _, _) = r.input else { return }
      try r.needActive()
      try r.needDeclared(name)
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .present(name, style, navigation) = input else { return }
      try sim.present(name, style: style ?? sim.profile.defaultPresentationStyle, navigation: navigation)
    },
    traceText: { input in
      guard case let .present(c, style, _) = input else { return "present" }
      return "present \(c)" + (style.map { " (\($0.rawValue))" } ?? "")
    },
    simpler: { input, domain in
      guard case let .present(name, style, navigation) = input else { return [] }
      var out: [Input] = domain.controllers.prefix { $0 != name }.map { .present($0, style: style, navigation: navigation) }
      if style != nil || navigation { out.insert(.present(name, style: nil, navigation: false), at: 0) }
      return out
    })

  static let dismiss = plain(
    "dismiss", .dismiss, doc: "dismiss the topmost presentation",
    refusal: { r throws(ScenarioError) in
      try r.needActive()
      if r.state.frontWindow?.presented.isEmpty ?? true { throw r.fail("nothing is presented") }
    },
    sequence: { _, sim throws(ProcessEnded) in try sim.dismiss(cancelled: false) })

  static let selectTab = VerbSpec(
    "select_tab", [.tab(key: "index", expected: "a tab number (1 is the first)")],
    doc: "select a tab of the tab bar (1 is the first)",
    make: { a in a.number("index").map { .selectTab(Int($0)) } },
    refusal: { r throws(ScenarioError) in
      guard case let .selectTab(i) = r.input else { return }
      try r.needActive()
      guard let w = r.state.frontWindow, w.container == .tabs else { throw r.fail("the app has no tab bar") }
      guard (1...w.tabs.count).contains(i) else { throw r.fail("tab \(i) does not exist (tabs 1 to \(w.tabs.count))") }
      if i - 1 == w.selectedTab { throw r.fail("tab \(i) is already selected") }
      if !w.presented.isEmpty { throw r.fail("a modal is presented over the tab bar") }
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .selectTab(i) = input else { return }
      try sim.selectTab(i)
    },
    simpler: { input, _ in
      guard case let .selectTab(i) = input, i > 1 else { return [] }
      return (1..<i).map(Input.selectTab)
    })

  static let swipeBack = VerbSpec(
    "swipe_back", [.options([VerbOption("cancel", .flag)])], doc: "interactive pop, completed or cancelled",
    make: { a in .swipeBack(cancel: a.flag("cancel")) },
    refusal: { r throws(ScenarioError) in
      try r.needActive()
      guard let stack = r.inPlace({ $0.navigationStack }), stack.count >= 2 else {
        throw r.fail("the navigation stack has nothing to swipe back to")
      }
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .swipeBack(cancel) = input else { return }
      try sim.pop(cancelled: cancel)
    },
    traceText: { input in "swipe_back" + (input == .swipeBack(cancel: true) ? " (cancelled)" : "") },
    simpler: { input, _ in input == .swipeBack(cancel: true) ? [.swipeBack(cancel: false)] : [] })

  static let swipeDown = VerbSpec(
    "swipe_down", [.options([VerbOption("cancel", .flag)])], doc: "interactive sheet dismissal, completed or cancelled",
    make: { a in .swipeDown(cancel: a.flag("cancel")) },
    refusal: { r throws(ScenarioError) in
      try r.needActive()
      guard let p = r.state.frontWindow?.presented.last, p.style.isSheet else { throw r.fail("no sheet is presented") }
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .swipeDown(cancel) = input else { return }
      try sim.dismiss(cancelled: cancel)
    },
    traceText: { input in "swipe_down" + (input == .swipeDown(cancel: true) ? " (cancelled)" : "") },
    simpler: { input, _ in input == .swipeDown(cancel: true) ? [.swipeDown(cancel: false)] : [] })

  static let act = VerbSpec(
    "act", [.action(key: "action", argumentsKey: "arguments")],
    doc: "a user action of the controller on screen, with the values after the name as its arguments",
    make: { a in a.text("action").map { .act($0, arguments: a.list("arguments") ?? []) } },
    refusal: { r throws(ScenarioError) in
      guard case let .act(name, _) = r.input else { return }
      try r.needActive()
      guard let top = r.inPlace({ $0.topController }), let c = r.state.controllers[top] else { throw r.fail("no controller is on screen") }
      let declared = r.actions(c.className)
      guard declared.contains(name) else { throw r.fail(UserAction.undeclared(name, controller: c.label, declared: declared)) }
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .act(name, arguments) = input else { return }
      try sim.performAction(name, arguments: arguments)
    },
    traceText: { input in
      guard case let .act(name, arguments) = input else { return "act" }
      return (["act \(name)"] + arguments.map(\.canonicalText)).joined(separator: " ")
    },
    simpler: { input, domain in
      guard case let .act(name, arguments) = input else { return [] }
      return domain.actions.arguments(of: name).prefix { $0 != arguments }.map { .act(name, arguments: $0) }
    })
}
