import JSON

// The verb table's rows for what the system does: memory, background launches, time, scenes,
// reboots, power, BGTaskScheduler requests and background transfers.

extension VerbSpec {
  static let memoryWarning = plain(
    "memory_warning", .memoryWarning, doc: "the app delegate, every controller, the notification",
    sequence: { _, sim throws(ProcessEnded) in
      guard sim.state.process == .running else {
        sim.note("memoryWarningNotDelivered", "a \(sim.inPlace { $0.appState }.rawValue) app receives no memory warning")
        return
      }
      try sim.deliver(.applicationDidReceiveMemoryWarning, "AppDelegate")
      // Every instance, loaded or not; no view is loaded to deliver it.
      for id in sim.inPlace({ $0.windowControllers }) where sim.state.controllers[id] != nil {
        try sim.deliver(.didReceiveMemoryWarning, sim.inPlace { $0.label(id) })
      }
      try sim.post("UIApplication.didReceiveMemoryWarningNotification")
    })

  static let memoryPressure = VerbSpec(
    "memory_pressure", [.optionalChoice(key: "level", words: ["critical"], expected: "nothing or \"critical\"")],
    doc: "the system reclaims a suspended app (jetsam); \"critical\": one running in the background too",
    make: { a in a.text("level") == "critical" ? .criticalMemoryPressure : .memoryPressure },
    sequence: { input, sim throws(ProcessEnded) in
      if input == .criticalMemoryPressure { return try sim.criticalMemoryPressure() }
      guard sim.state.process == .suspended || sim.state.process == .prewarmed else {
        sim.note("notReclaimed", "memory pressure reclaims suspended apps; this one is \(sim.inPlace { $0.appState }.rawValue)")
        return
      }
      sim.terminate(Termination(reason: .jetsam, code: nil,
                                description: "vm-pageshortage: the system reclaimed the suspended app's memory"))
    },
    simpler: { input, _ in input == .criticalMemoryPressure ? [.memoryPressure] : [] })

  static let backgroundLaunch = choosing(
    "background_launch", key: "event", BackgroundEvent.self,
    doc: "fetch or push: launched or woken in the background", Input.backgroundLaunch,
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .backgroundLaunch(event) = input else { return }
      try sim.backgroundLaunch(event)
    })

  static let advance = VerbSpec(
    "advance", [.seconds(key: "duration_us")], doc: "virtual time passes; what falls due fires in order",
    make: { a in a.number("duration_us").map { .advance(us: $0) } },
    refusal: { r throws(ScenarioError) in
      guard case let .advance(us) = r.input, us > VirtualTime.latestUs - r.clockUs else { return }
      throw r.fail("the virtual clock would pass \(VirtualTime.latestUs) µs, the latest time a log can hold")
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .advance(us) = input else { return }
      sim.advance(us)
    },
    traceText: { input in
      guard case let .advance(us) = input else { return "advance" }
      return "advance \(VirtualTime.format(us)) s"
    },
    simpler: { input, domain in
      guard case let .advance(us) = input else { return [] }
      let deadlines = domain.deadlinesUs.filter { $0 < us }
      return ([0, us / 2] + deadlines).filter { $0 < us }.map { .advance(us: $0) }
    })

  static let disconnectScene = VerbSpec(
    "disconnect_scene", [.scene(key: "scene", expected: "a scene number (1 names Scene#1)")],
    doc: "UIKit reclaims a background scene: sceneDidDisconnect, the scene is released, its session kept",
    make: { a in a.number("scene").map { .disconnectScene(Int($0)) } },
    refusal: { r throws(ScenarioError) in
      guard case let .disconnectScene(n) = r.input,
            let why = r.inPlace({ SystemEndingRules.whyNotDisconnect(scene: n, $0, scenes: r.profile.scenes) }) else { return }
      throw r.fail(why)
    },
    sequence: { input, sim throws(ProcessEnded) in
      if case let .disconnectScene(n) = input { try sim.disconnectScene(n) }
    },
    traceText: { input in
      guard case let .disconnectScene(n) = input else { return "disconnect_scene" }
      return "disconnect_scene \(SceneState.label(number: n))"
    })

  static let timeChange = plain(
    "time_change", .timeChange,
    doc: "a significant time change: delivered now, queued while suspended, lost when not running",
    sequence: { _, sim throws(ProcessEnded) in try sim.timeChange() },
    deviceChange: { _, s in
      if s.process == .suspended { s.timeChangePending = true }
    })

  static let reboot = plain(
    "reboot", .reboot, doc: "the device restarts: the process ends without callbacks, the next unlock is the first",
    sequence: { _, sim in sim.reboot() },
    deviceChange: { _, s in
      s.locked = true; s.lockedAt = nil; s.frontmostAtLock = false
      s.switcherOpen = false; s.interruption = nil
      s.firstUnlockPending = true
    })

  static let bgTask = VerbSpec(
    "bg_task", [.string(key: "id", expected: "a task identifier", domain: .bgTaskRequests)],
    doc: "iOS 13 or later: the system runs the pending, due BGTaskScheduler request in the background",
    make: { a in a.text("id").map(Input.bgTask) },
    refusal: backgroundWorkRefusal,
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .bgTask(identifier) = input else { return }
      try sim.runBGTask(identifier)
    })

  static let power = VerbSpec(
    "power", [.boolean(key: "on")], doc: "the device goes on (true) or off (false) external power",
    make: { a in .power(a.flag("on")) },
    refusal: backgroundWorkRefusal,
    sequence: { _, _ in },  // the fold records it; a request that needs power may now run
    traceText: { input in
      guard case let .power(on) = input else { return "power" }
      return "power \(on ? "on" : "off")"
    })

  static let transferDone = VerbSpec(
    "transfer_done", [.string(key: "session", expected: "a background session identifier", domain: .transferSessions)],
    doc: "every transfer of the background URL session that has run its time finishes",
    make: { a in a.text("session").map(Input.transferDone) },
    refusal: backgroundWorkRefusal,
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .transferDone(session) = input else { return }
      try sim.finishTransfers(session: session)
    })

  /// `bg_task`, `power` and `transfer_done`: refused as `InputRules.backgroundWorkRefusal` says.
  private static let backgroundWorkRefusal: Refusal = { r throws(ScenarioError) in
    if let why = r.inPlace({ InputRules(profile: r.profile).backgroundWorkRefusal(r.input, $0, r.clockUs) }) { throw r.fail(why) }
  }
}
