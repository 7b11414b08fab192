extension VerbSpec {
  /// The scenario verbs, in the order the docs list them.
  public static let all: [VerbSpec] = [
    VerbSpec("launch", [.options([VerbOption("url", .string(.urls))])],
             doc: "tap the icon: cold launch, or back to the foreground; with url, a deep link") { a in
      .launch(url: a.text("url"))
    },
    plain("prewarm", .prewarm, doc: "iOS 15 or later: the process is created and suspended, no app code runs"),
    plain("home", .home, doc: "resign active, enter background, suspend when nothing keeps it running"),
    plain("lock", .lock, doc: "like home; protected data goes after a delay"),
    plain("unlock", .unlock, doc: "protected data returns; a frontmost app comes back"),
    choosing("interrupt", key: "type", Interruption.self, doc: "a call, alert or pulled-down center: resign active", Input.interrupt),
    choosing("end_interrupt", key: "how", InterruptionEnd.self,
             doc: "a call is declined (active again) or answered (background); others are dismissed", Input.endInterrupt),
    plain("app_switcher", .appSwitcher, doc: "resign active, the switcher is open"),
    VerbSpec("switch_to", [.choice(key: "to", words: ["self", "other"], expected: "\"self\" or \"other\"")],
             doc: "from the switcher: self (active again) or another app (background)") { a in
      a.text("to").map { .switchTo(other: $0 == "other") }
    },
    plain("force_quit", .forceQuit, doc: "swipe the card away: willTerminate unless suspended"),
    plain("memory_warning", .memoryWarning, doc: "the app delegate, every controller, the notification"),
    VerbSpec("memory_pressure", [.optionalChoice(key: "level", words: ["critical"], expected: "nothing or \"critical\"")],
             doc: "the system reclaims a suspended app (jetsam); \"critical\": one running in the background too") { a in
      a.text("level") == "critical" ? .criticalMemoryPressure : .memoryPressure
    },
    choosing("background_launch", key: "event", BackgroundEvent.self,
             doc: "fetch or push: launched or woken in the background", Input.backgroundLaunch),
    VerbSpec("open_url", [.string(key: "url", expected: "a URL string", domain: .urls)],
             doc: "a link into the app, cold or warm") { a in
      a.text("url").map(Input.openURL)
    },
    choosing("rotate", key: "orientation", Orientation.self, doc: "trait and size transitions, then layout", Input.rotate),
    VerbSpec("push", [.string(key: "class", expected: "a controller name", domain: .controllers)],
             doc: "push a declared controller on the navigation controller on screen") { a in
      a.text("class").map(Input.push)
    },
    plain("pop", .pop, doc: "pop the top of the navigation stack"),
    VerbSpec("present", [.string(key: "class", expected: "a controller name", domain: .controllers),
                         .options([VerbOption("style", .choice(PresentationStyle.words)), VerbOption("navigation", .flag)])],
             doc: "present a declared controller modally, optionally in a navigation controller") { a in
      a.text("class").map { .present($0, style: a.choice("style", PresentationStyle.self), navigation: a.flag("navigation")) }
    },
    plain("dismiss", .dismiss, doc: "dismiss the topmost presentation"),
    VerbSpec("select_tab", [.tab(key: "index", expected: "a tab number (1 is the first)")],
             doc: "select a tab of the tab bar (1 is the first)") { a in
      a.number("index").map { .selectTab(Int($0)) }
    },
    VerbSpec("swipe_back", [.options([VerbOption("cancel", .flag)])],
             doc: "interactive pop, completed or cancelled") { a in
      .swipeBack(cancel: a.flag("cancel"))
    },
    VerbSpec("swipe_down", [.options([VerbOption("cancel", .flag)])],
             doc: "interactive sheet dismissal, completed or cancelled") { a in
      .swipeDown(cancel: a.flag("cancel"))
    },
    VerbSpec("advance", [.seconds(key: "duration_us")],
             doc: "virtual time passes; what falls due fires in order") { a in
      a.number("duration_us").map { .advance(us: $0) }
    },
    VerbSpec("disconnect_scene", [.scene(key: "scene", expected: "a scene number (1 names Scene#1)")],
             doc: "UIKit reclaims a background scene: sceneDidDisconnect, the scene is released, its session kept") { a in
      a.number("scene").map { .disconnectScene(Int($0)) }
    },
    plain("time_change", .timeChange, doc: "a significant time change: delivered now, queued while suspended, lost when not running"),
    plain("reboot", .reboot, doc: "the device restarts: the process ends without callbacks, the next unlock is the first"),
  ]

  /// A verb whose one argument is a case of `E`, recorded under `key`.
  static func choosing<E: RawRepresentable & CaseIterable & Sendable>(_ name: String, key: String, _: E.Type, doc: String,
                                                           _ input: @escaping @Sendable (E) -> Input) -> VerbSpec
  where E.RawValue == String {
    VerbSpec(name, [.choice(key: key, words: E.words, expected: E.oneOf)], doc: doc) { $0.text(key).flatMap(E.init(rawValue:)).map(input) }
  }

  /// The spec whose Lua name is `name`.
  public static func named(_ name: String) -> VerbSpec? { all.first { $0.name == name } }
}
