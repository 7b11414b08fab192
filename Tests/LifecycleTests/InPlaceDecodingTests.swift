import EventStore
import JSON
import Testing
import TestSupport
@testable import Lifecycle
import LifecycleLog

/// Reading events in place (`LogReader` in `.inPlace` mode, as replay --state and the exports
/// do) decodes exactly the events the parsed path decodes, whatever their members hold.
@Suite struct InPlaceDecodingTests {
  /// A run of the model, plus bodies with escapes, non-ASCII text, nested payloads and
  /// negative and fractional numbers.
  private func events() throws -> [Event] {
    let app = ScriptedApp()
    app.returns["didFinishLaunchingWithOptions"] = .object([("restored", .array([.int(-3), .double(2.5), .null]))])
    var recorded: [Event] = []
    let sim = Simulator(profile: Profile(ios: 17, scenes: true), driver: app) { recorded.append($0) }
    for input: Input in [.launch(url: "notes://é/\"x\""), .home, .advance(us: 7_000_000), .launch(url: nil), .lock] {
      try sim.perform(input, at: "s.lua:1")
    }
    let t = sim.clock
    let payload = JSONValue.object([("text", .string("tab\there \\ \u{1F600} \u{07}")), ("n", .int(-12)), ("empty", .object([]))])
    recorded += [
      Event(t: t, .callbackDelivered(.willConnectTo, target: "SceneDelegate", handled: true, depth: 2,
                             arguments: CallbackArguments(url: "u", completion: 4, animated: false, payload: payload))),
      Event(t: t, .appCalled(.store(key: "k\"ey", value: .object([("a", .double(-0.5))])), at: "app.lua:3")),
      Event(t: t, .appCalled(.log("line\nbreak"), at: nil)),
      Event(t: t, .noted(name: "print", message: "ünïcödé")),
      Event(t: t, .noted(name: "AppDelegate.openURL", message: "never called", code: "handler_never_called")),
      Event(t: t, .inputPerformed(.act("type", arguments: [.string("a\"b é"), .int(-2), .double(0.25), .bool(false)]), at: "s.lua:2")),
      Event(t: t, .callbackDelivered(.userAction, target: "Editor#1", handled: true, depth: 0,
                             arguments: CallbackArguments(payload: UserAction.payload("type", [.string("\u{1F600}")])))),
    ]
    return recorded
  }

  @Test func everyEventDecodesTheSameInPlaceAsParsed() throws {
    let written = try events()
    let path = temporaryPath("lifesim-inplace", "run.lifelog")
    let writer = try LogWriter(path: path, header: LogHeader(lifesim: "test", lua: "Lua 5.4", profile: .object([]),
                                                             scenes: true, seed: 1, scripts: []))
    for (i, e) in written.enumerated() { try writer.append(e.logEvent(seq: Int64(i + 1))) }
    try writer.finish(outcome: .object([]))

    let parsed = try LogReader(path: path), inPlace = try LogReader(path: path, mode: .inPlace)
    var count = 0
    while let line = try parsed.next() {
      let other = try inPlace.next()
      guard case let .event(e) = line else { #expect(other == line); continue }
      let fromParsed = try Event(e), fromView = try Event(inPlace.lastView)
      #expect(fromView == fromParsed)
      #expect(fromView == written[count])
      #expect(inPlace.lastBody == e.canonicalBody)
      count += 1
    }
    #expect(try inPlace.next() == nil)
    #expect(count == written.count && count > 40)
  }
}
