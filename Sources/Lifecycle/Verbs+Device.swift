// The verb table's rows for what the user does with the device and the app's icon: launch,
// prewarm, home, lock and unlock, interruptions, the app switcher and force quit.

extension VerbSpec {
  static let launch = VerbSpec(
    "launch", [.options([VerbOption("url", .string(.urls))])],
    doc: "tap the icon: cold launch, or back to the foreground; with url, a deep link",
    make: { a in .launch(url: a.text("url")) },
    refusal: { r throws(ScenarioError) in
      try r.needReachable()
      if r.state.appState == .active { throw r.fail("the app is already active") }
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .launch(url) = input else { return }
      try sim.userLaunch(url: url)
    },
    deviceChange: { _, s in s.forceQuit = false; s.switcherOpen = false },
    userTakesDevice: { _ in true },
    traceText: { input in
      guard case let .launch(url) = input else { return "launch" }
      return "launch" + (url.map { " url=\($0)" } ?? "")
    },
    simpler: { input, _ in
      guard case let .launch(url) = input, url != nil else { return [] }
      return [.launch(url: nil)]
    })

  static let prewarm = plain(
    "prewarm", .prewarm, doc: "iOS 15 or later: the process is created and suspended, no app code runs",
    refusal: { r throws(ScenarioError) in
      if !r.profile.prewarming { throw r.fail("prewarming needs iOS 15 or later (profile: iOS \(r.profile.ios))") }
      if r.state.process != .notRunning { throw r.fail("only a process that is not running can be prewarmed") }
    },
    sequence: { _, sim throws(ProcessEnded) in
      try sim.startProcess(mode: .prewarm, state: .background)
      let profile = sim.profile
      if profile.prewarmRunsDidFinish == .always || (profile.prewarmRunsDidFinish == .sceneAppsOnly && profile.scenes) {
        try sim.deliver(.willFinishLaunchingWithOptions, "AppDelegate")
        try sim.deliver(.didFinishLaunchingWithOptions, "AppDelegate")
        try sim.post("UIApplication.didFinishLaunchingNotification")
        try sim.reportDiscardedSessions()
      }
    })

  static let home = plain(
    "home", .home, doc: "resign active, enter background, suspend when nothing keeps it running",
    refusal: { r throws(ScenarioError) in
      guard r.inPlace({ $0.isForeground }), r.state.interruption == nil, !r.state.locked else { throw r.fail("the app is not frontmost") }
    },
    sequence: { _, sim throws(ProcessEnded) in
      try sim.resignEveryScene()
      try sim.backgroundEveryScene()
    },
    deviceChange: { _, s in s.switcherOpen = false })

  static let lock = plain(
    "lock", .lock, doc: "like home; protected data goes after a delay",
    refusal: { r throws(ScenarioError) in
      if r.state.locked { throw r.fail("the device is already locked") }
    },
    sequence: { _, sim throws(ProcessEnded) in
      if sim.inPlace({ $0.isForeground }) {
        try sim.resignEveryScene()
        try sim.backgroundEveryScene()
      }
    },
    deviceChange: { _, s in
      s.locked = true; s.lockedAt = s.now; s.frontmostAtLock = s.isForeground
      s.switcherOpen = false
      s.interruption = nil  // the app leaves the screen: whatever interrupted it is over for the app
    })

  static let unlock = VerbSpec(
    "unlock", doc: "protected data returns; a frontmost app comes back",
    make: { _ in .unlock },
    refusal: { r throws(ScenarioError) in
      if !r.state.locked { throw r.fail("the device is not locked") }
    },
    sequence: { _, sim throws(ProcessEnded) in
      let (dataAvailable, frontmost) = sim.inPlace { ($0.protectedDataAvailable, $0.frontmostAtLock) }
      if !dataAvailable { try sim.protectedData(available: true) }
      if frontmost { try sim.userLaunch(url: nil) }
    },
    deviceChange: { _, s in
      s.locked = false; s.lockedAt = nil
      // Protected data coming back is queued for a suspended app, after any lock (docs/model.md §12).
      if !s.protectedDataAvailable, s.process == .suspended { s.protectedDataAvailablePending = true }
      s.firstUnlockPending = false
    },
    userTakesDevice: { _ in true })

  static let interrupt = choosing(
    "interrupt", key: "type", Interruption.self, doc: "a call, alert or pulled-down center: resign active", Input.interrupt,
    refusal: { r throws(ScenarioError) in try r.needActive() },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .interrupt(kind) = input else { return }
      try sim.resignEveryScene()
      if kind == .notificationCenter, sim.profile.notificationCenterDoubleActivation {
        // Fully extended, the center lets the app become active and resign again.
        try sim.activateEveryScene()
        try sim.resignEveryScene()
      }
    },
    deviceChange: { input, s in
      if case let .interrupt(i) = input { s.interruption = i }
    })

  static let endInterrupt = choosing(
    "end_interrupt", key: "how", InterruptionEnd.self,
    doc: "a call is declined (active again) or answered (background); others are dismissed", Input.endInterrupt,
    refusal: { r throws(ScenarioError) in
      guard case let .endInterrupt(how) = r.input else { return }
      guard let i = r.state.interruption else { throw r.fail("no interruption is in progress") }
      let allowed: [InterruptionEnd] = i == .call ? [.declined, .answered] : [.dismissed]
      guard allowed.contains(how) else {
        throw r.fail("a \(i.rawValue) ends \(allowed.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")), not \"\(how.rawValue)\"")
      }
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .endInterrupt(how) = input, sim.inPlace({ $0.isForeground }) else { return }
      if how == .answered { try sim.backgroundEveryScene() } else { try sim.activateEveryScene() }
    },
    deviceChange: { _, s in s.interruption = nil })

  static let appSwitcher = plain(
    "app_switcher", .appSwitcher, doc: "resign active, the switcher is open",
    refusal: { r throws(ScenarioError) in
      if r.state.switcherOpen { throw r.fail("the app switcher is already open") }
      if r.state.locked { throw r.fail("the device is locked") }
      if r.state.interruption != nil { throw r.fail("an interruption is in progress") }
    },
    sequence: { _, sim throws(ProcessEnded) in
      if sim.state.process == .running { try sim.resignEveryScene() }
    },
    deviceChange: { _, s in s.switcherOpen = true })

  static let switchTo = VerbSpec(
    "switch_to", [.choice(key: "to", words: ["self", "other"], expected: "\"self\" or \"other\"")],
    doc: "from the switcher: self (active again) or another app (background)",
    make: { a in a.text("to").map { .switchTo(other: $0 == "other") } },
    refusal: { r throws(ScenarioError) in
      if !r.state.switcherOpen { throw r.fail("the app switcher is not open; app_switcher() first") }
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .switchTo(other) = input else { return }
      let foreground = sim.inPlace { $0.isForeground }
      if other {
        if foreground { try sim.backgroundEveryScene() }
      } else if foreground {
        try sim.activateEveryScene()
      } else {
        try sim.userLaunch(url: nil)
      }
    },
    deviceChange: { _, s in s.switcherOpen = false })

  static let forceQuit = plain(
    "force_quit", .forceQuit, doc: "swipe the card away: willTerminate unless suspended",
    refusal: { r throws(ScenarioError) in
      guard r.state.process == .running || r.state.process == .suspended else { throw r.fail("there is no process to force quit") }
      if r.state.appState == .active, !r.state.switcherOpen {
        throw r.fail("the app is active; open the app switcher with app_switcher() first")
      }
      if r.state.interruption != nil { throw r.fail("an interruption is in progress") }
    },
    sequence: { _, sim throws(ProcessEnded) in try sim.forceQuit() },
    deviceChange: { _, s in s.forceQuit = true; s.switcherOpen = false })
}
