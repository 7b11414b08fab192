import JSON
import Testing
@testable import Lifecycle
import LifecycleLog

/// `act(name, …)`: a user action of the controller on screen, run as app code and logged as
/// the input and an `action(_:)` callback on the controller.
@Suite struct UserActionTests {
  /// An app whose NoteList declares `type` (it stores its first argument) and `save`, and whose
  /// Detail declares none.
  private static func editorApp() -> ScriptedApp {
    let app = ScriptedApp()
    app.actions["NoteList"] = [
      "type": { sim in try sim.store(key: "typed", value: .bool(true)) },
      "save": { sim in try sim.store(key: "saved", value: .bool(true)) },
    ]
    return app
  }

  /// The canonical JSON of every event from `seq` on, as the log writes it (without `h`).
  private static func lines(_ events: [Event], from first: Int) -> [String] {
    var w = CanonicalJSONWriter()
    return events.enumerated().dropFirst(first - 1).map { i, event in
      event.canonicalBody(seq: Int64(i + 1), into: &w)
      return String(decoding: w.bytes, as: UTF8.self)
    }
  }

  @Test func anActionRunsOnTheControllerOnScreenAndIsLoggedAsAnInputAndACallback() throws {
    let h = Harness(app: Self.editorApp())
    try h.perform(.launch(url: nil))
    h.skipRemainingEvents()
    let before = h.allEvents.count
    try h.sim.perform(.act("type", arguments: [.string("hello"), .int(2), .double(0.5), .bool(true)]), at: "s.lua:3")
    h.expectCalls(["NoteList#1.action(_:)"])
    #expect(Self.lines(h.allEvents, from: before + 1) == [
      #"{"seq":\#(before + 1),"t":0,"kind":"input","name":"act","action":"type","arguments":["hello",2,0.5,true],"at":"s.lua:3"}"#,
      #"{"seq":\#(before + 2),"t":0,"kind":"callback","name":"action(_:)","target":"NoteList#1","handled":true,"depth":0,"payload":{"action":"type","arguments":["hello",2,0.5,true]}}"#,
      #"{"seq":\#(before + 3),"t":0,"kind":"call","name":"store","key":"typed","value":true}"#,
      #"{"seq":\#(before + 4),"t":0,"kind":"return","name":"action(_:)","target":"NoteList#1","used_us":0,"depth":0}"#,
    ])
    #expect(h.sim.state.store["typed"] == .bool(true))
  }

  @Test func theActionIsThatOfTheTopmostControllerPushedOrPresented() throws {
    let app = Self.editorApp()
    app.actions["Sheet"] = ["close": { sim in try sim.appPush("Detail") }]
    let h = Harness(app: app)
    try h.perform(.launch(url: nil), .present("Sheet", style: .pageSheet, navigation: true))
    h.skipRemainingEvents()
    try h.perform(.act("close", arguments: []))
    h.expectCalls(["Sheet#1.action(_:)", "Detail#1.init(coder:)", "Detail#1.loadView()", "Detail#1.viewDidLoad()",
                   "Sheet#1.viewWillDisappear(_:)", "Detail#1.viewWillAppear(_:)", "Detail#1.viewIsAppearing(_:)",
                   "Detail#1.viewWillLayoutSubviews()", "Detail#1.viewDidLayoutSubviews()",
                   "Sheet#1.viewDidDisappear(_:)", "Detail#1.viewDidAppear(_:)"])
    #expect(throws: ScenarioError("act(): Detail#1 declares no actions (state: active)")) {
      try h.sim.perform(.act("close", arguments: []))
    }
  }

  @Test func anUndeclaredActionNamesTheControllerAndItsActions() throws {
    let h = Harness(app: Self.editorApp())
    try h.perform(.launch(url: nil))
    h.skipRemainingEvents()
    #expect(throws: ScenarioError("act(): NoteList#1 has no action \"tpye\" (did you mean type?); its actions: save, type (state: active)")) {
      try h.sim.perform(.act("tpye", arguments: [.string("x")]))
    }
    #expect(throws: ScenarioError("act(): NoteList#1 has no action \"publish\"; its actions: save, type (state: active)")) {
      try h.sim.perform(.act("publish", arguments: []))
    }
  }

  @Test func anActionIsLegalOnlyWhileTheAppIsActiveAndFrontmost() throws {
    let h = Harness(app: Self.editorApp())
    let type = Input.act("type", arguments: [])
    #expect(throws: ScenarioError("act(): the app must be active and frontmost (state: not_running)")) { try h.sim.perform(type) }
    try h.perform(.launch(url: nil), .interrupt(.call))
    #expect(throws: ScenarioError("act(): the app must be active and frontmost (state: inactive, call in progress)")) { try h.sim.perform(type) }
    try h.perform(.endInterrupt(.declined), .appSwitcher)
    #expect(throws: ScenarioError("act(): the app must be active and frontmost (state: inactive, app switcher open)")) { try h.sim.perform(type) }
    try h.perform(.switchTo(other: false), .lock)
    #expect(throws: ScenarioError("act(): the app must be active and frontmost (state: suspended, device locked)")) { try h.sim.perform(type) }
    h.skipRemainingEvents()
    #expect(h.sim.state.store["typed"] == nil)
  }

  @Test func anActionThatBlocksTheMainThreadIsAWatchdogKill() throws {
    let app = ScriptedApp()
    app.actions["NoteList"] = ["sync": { sim in try sim.work(us: 12_000_000) }]
    let h = Harness(app: app)
    try h.perform(.launch(url: nil))
    h.skipRemainingEvents()
    try h.perform(.act("sync", arguments: []))
    h.expectCalls(["NoteList#1.action(_:)"])
    h.expectSystem(["terminated watchdog 0x8badf00d: scene-update watchdog transgression: action(_:) blocked the main thread; exhausted real (wall clock) time allowance of 10.00 seconds"])
    #expect(h.sim.clock == 10_000_000)
    #expect(h.sim.state.unexpectedFaults.count == 1)
  }

  @Test func legalInputsOfferTheVisibleControllersActionsWithTheirArgumentLists() throws {
    let h = Harness(app: Self.editorApp())
    try h.perform(.launch(url: nil))
    h.skipRemainingEvents()
    let catalog = ActionCatalog(byController: ["NoteList": ["save", "type"], "Sheet": ["close"]],
                                argumentLists: ["type": [[.string("hello")], [.string(""), .int(1)]]])
    func acts() -> [Input] {
      h.sim.rules.legalInputs(state: h.sim.state, clockUs: h.sim.clock, controllers: ["Detail", "NoteList", "Sheet"],
                              actions: catalog).filter { $0.verb == "act" }
    }
    #expect(acts() == [.act("save", arguments: []), .act("type", arguments: [.string("hello")]),
                       .act("type", arguments: [.string(""), .int(1)])])
    try h.perform(.push("Detail"))
    h.skipRemainingEvents()
    #expect(acts() == [])
    try h.perform(.home)
    h.skipRemainingEvents()
    #expect(acts() == [])
  }

  @Test("expect_calls names user actions by the callback action(_:); an action's own name gets that hint")
  func anActionIsExpectedAsTheActionCallback() throws {
    let call = CallRecord(callback: .userAction, target: "Editor#1")
    #expect(try CallPattern("Editor.actions").matches(call))
    #expect(try CallPattern("Editor#1.action(_:)").matches(call))
    #expect(throws: ScenarioError("unknown callback \"Editor.type\"; user actions, whatever their names, are the callback action(_:): \"Editor.actions\"")) {
      try CallPattern("Editor.type")
    }
  }
}
