// The verb table's rows for what opens the app with something to show: URLs, notifications,
// quick actions, universal links and Handoff.

extension VerbSpec {
  static let openURL = VerbSpec(
    "open_url", [.string(key: "url", expected: "a URL string", domain: .urls)], doc: "a link into the app, cold or warm",
    make: { a in a.text("url").map(Input.openURL) },
    refusal: { r throws(ScenarioError) in try r.needReachable() },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .openURL(url) = input else { return }
      try sim.userLaunch(url: url)
    },
    deviceChange: { _, s in s.forceQuit = false; s.switcherOpen = false },
    userTakesDevice: { _ in true },
    simpler: opensTheAppInstead)

  static let notify = VerbSpec(
    "notify", [.options([VerbOption("id", .string(.notificationIDs), required: true)])],
    doc: "a notification arrives while the app is in the foreground: willPresent",
    make: { a in a.text("id").map(Input.notify) },
    refusal: { r throws(ScenarioError) in
      guard r.state.appState == .active else {
        throw r.fail("the app must be active: a notification for an app in the background is tapped with tap_notification")
      }
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .notify(id) = input else { return }
      try sim.presentNotification(id: id)
    })

  static let tapNotification = VerbSpec(
    "tap_notification", [.options([VerbOption("id", .string(.notificationIDs), required: true),
                                   VerbOption("action", .string(.notificationActions)),
                                   VerbOption("foreground", .flag)])],
    doc: "tap a notification (cold, warm or while active) or one of its actions (in the background unless foreground)",
    make: { a in a.text("id").map { .tapNotification(id: $0, action: a.text("action") ?? Opening.defaultAction, foreground: a.flag("foreground")) } },
    refusal: { r throws(ScenarioError) in
      guard r.input.userTakesDevice else { return }  // runs in the background: any time
      try r.needReachable()
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .tapNotification(id, action, foreground) = input else { return }
      try sim.tapNotification(id: id, action: action, foreground: foreground)
    },
    deviceChange: { input, s in
      if input.userTakesDevice { s.forceQuit = false }
    },
    userTakesDevice: { input in
      guard case let .tapNotification(_, action, foreground) = input else { return false }
      return action == Opening.defaultAction || foreground
    },
    traceText: { input in
      guard case let .tapNotification(id, action, foreground) = input else { return "tap_notification" }
      return "tap_notification \(id)" + (action == Opening.defaultAction ? "" : " action=\(action)") + (foreground ? " (foreground)" : "")
    },
    simpler: opensTheAppInstead)

  static let quickAction = VerbSpec(
    "quick_action", [.string(key: "type", expected: "a shortcut item type", domain: .shortcutTypes)],
    doc: "a Home Screen quick action opens the app, cold or warm",
    make: { a in a.text("type").map(Input.quickAction) },
    refusal: { r throws(ScenarioError) in
      try r.needReachable()
      if r.state.appState == .active { throw r.fail("quick actions come from the Home Screen and the app is active; home() first") }
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .quickAction(type) = input else { return }
      try sim.open(.shortcutItem(type: type))
    },
    deviceChange: { _, s in s.forceQuit = false },
    userTakesDevice: { _ in true },
    simpler: opensTheAppInstead)

  static let universalLink = VerbSpec(
    "universal_link", [.string(key: "url", expected: "a URL string", domain: .urls)],
    doc: "a universal link opens the app as a browsing-web user activity, cold or warm",
    make: { a in a.text("url").map(Input.universalLink) },
    refusal: { r throws(ScenarioError) in try r.needReachable() },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .universalLink(url) = input else { return }
      try sim.open(.userActivity(type: Opening.browsingWeb, webpageURL: url))
    },
    deviceChange: { _, s in s.forceQuit = false },
    userTakesDevice: { _ in true },
    simpler: opensTheAppInstead)

  static let handoff = VerbSpec(
    "handoff", [.string(key: "type", expected: "an activity type", domain: .activityTypes)],
    doc: "an activity handed off from another device opens the app, cold or warm",
    make: { a in a.text("type").map(Input.handoff) },
    refusal: { r throws(ScenarioError) in try r.needReachable() },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .handoff(type) = input else { return }
      try sim.open(.userActivity(type: type, webpageURL: nil))
    },
    deviceChange: { _, s in s.forceQuit = false },
    userTakesDevice: { _ in true },
    simpler: opensTheAppInstead)

  /// A verb that opens the app with something to show is simpler as a plain `launch()`.
  private static let opensTheAppInstead: @Sendable (Input, ShrinkDomain) -> [Input] = { _, _ in [.launch(url: nil)] }
}
