import Testing
@testable import Lifecycle

/// The scene mandate (docs/model.md §13): iOS 27 traps at launch a sceneless app built with the
/// iOS 27 SDK, before any app-delegate method, for every kind of launch; an older SDK, an older
/// iOS or a scene app launches as before.
@Suite struct SceneMandateTests {
  static let trap = "terminated crash EXC_BREAKPOINT: UIScene life cycle is required for apps built with this SDK"
  static let trapNote =
    "note sceneLifecycleRequired: Application failed to launch: UIScene life cycle is required for apps built with this SDK [scene_lifecycle_required]"

  /// Each kind of launch, and the process start it records.
  static let launches: [(Input, String)] = [
    (.launch(url: nil), "started foreground, inactive"),
    (.launch(url: "notes://open"), "started foreground, inactive"),
    (.backgroundLaunch(.fetch), "started background, background"),
    (.backgroundLaunch(.push), "started background, background"),
    (.tapNotification(id: "message-1", action: "default", foreground: false), "started foreground, inactive"),
  ]

  @Test("§13 iOS 27, SDK 27, no scenes: a note, then the trap, before any app-delegate method, for every launch (S31, T140, T141)",
        arguments: 0..<5)
  func mandateTraps(launch: Int) throws {
    let (input, started) = Self.launches[launch]
    let h = Harness(ios: 27, scenes: false, sdk: 27)
    try h.perform(input)
    h.expectCalls([])
    h.expectNotifications([])
    h.expectSystem([started, Self.trapNote, Self.trap])
    #expect(h.sim.state.process == .notRunning)
  }

  @Test("§13 a prewarmed process traps when its launch continues")
  func prewarmedTraps() throws {
    let h = Harness(ios: 27, scenes: false, sdk: 27)
    try h.perform(.prewarm, .launch(url: nil))
    h.expectCalls([])
    h.expectNotifications([])
    h.expectSystem(["started prewarm, background", "continued inactive", Self.trapNote, Self.trap])
  }

  @Test("§13 a prewarmed sceneless app without the trap gets the note when its launch continues, as a cold launch does",
        arguments: [(26, 26), (27, 26)])
  func prewarmedGetsTheNote(ios: Int, sdk: Int) throws {
    let h = Harness(ios: ios, scenes: false, sdk: sdk)
    try h.perform(.prewarm, .launch(url: nil))
    #expect(h.sim.state.diagnostics.map(\.code) == ["scene_lifecycle_required"])
    #expect(h.sim.state.applicationState == .active)
    h.skipRemainingEvents()
  }

  @Test("§13 a user launch on iOS 26/27 × SDK 26/27 × scenes: only iOS 27, SDK 27 without scenes traps; sceneless apps get the note (S31, F12, F13)",
        arguments: [26, 27], [26, 27])
  func userLaunchMatrix(ios: Int, sdk: Int) throws {
    for scenes in [true, false] where !(ios == 27 && sdk == 27 && !scenes) {
      let h = Harness(ios: ios, scenes: scenes, sdk: sdk)
      try h.launch()
      #expect(h.sim.state.applicationState == .active)
    }
  }

  @Test("§13 background and notification launches: the SDK changes nothing but the mandate's own case (F13)",
        arguments: [26, 27], [2, 3, 4])
  func otherLaunchesUnchanged(ios: Int, launch: Int) throws {
    let input = Self.launches[launch].0
    for scenes in [true, false] where !(ios == 27 && !scenes) {
      #expect(Self.events(ios: ios, sdk: 27, scenes: scenes, input) == Self.events(ios: ios, sdk: 26, scenes: scenes, input))
    }
    let sceneless = Self.events(ios: ios, sdk: 26, scenes: false, input)
    #expect(sceneless.contains(.noted(name: "sceneLifecycleRequired",
                                      message: "UIScene lifecycle will soon be required. Failure to adopt will result in an assert in the future.",
                                      code: "scene_lifecycle_required")))
    #expect(!sceneless.contains { if case .terminated = $0 { true } else { false } })
  }

  @Test("§13 the knob sceneLifecycleAssert decides the trap: on for iOS 26, off for iOS 27 with SDK 27")
  func knobDecides() throws {
    let on = Harness(ios: 26, scenes: false, knobs: { $0.sceneLifecycleAssert = true })
    try on.perform(.launch(url: nil))
    on.expectSystem(["started foreground, inactive", Self.trapNote, Self.trap])
    on.expectCalls([])
    on.expectNotifications([])
    let off = Harness(ios: 27, scenes: false, sdk: 27, knobs: { $0.sceneLifecycleAssert = false })
    try off.launch()
  }

  @Test("§13 sceneLifecycleAssert defaults: true only from iOS 27 with SDK 27; the default SDK is 26, or the iOS if older")
  func defaults() {
    #expect(Profile(ios: 27, sdk: 27).sceneLifecycleAssert)
    #expect(!Profile(ios: 27).sceneLifecycleAssert && Profile(ios: 27).sdk == 26)
    #expect(!Profile(ios: 26, sdk: 27).sceneLifecycleAssert)
    #expect(Profile(ios: 15).sdk == 15 && Profile(ios: 26).sdk == 26)
    #expect(Profile(ios: 27).building(with: 27).sceneLifecycleAssert)
    var kept = Profile(ios: 27)
    kept.sceneLifecycleAssert = true
    #expect(kept.building(with: 26).sceneLifecycleAssert)
  }

  static func events(ios: Int, sdk: Int, scenes: Bool, _ input: Input) -> [EventBody] {
    var events: [EventBody] = []
    let sim = Simulator(profile: Profile(ios: ios, scenes: scenes, sdk: sdk), driver: ScriptedApp()) { events.append($0.body) }
    try? sim.perform(input)
    return events
  }
}
