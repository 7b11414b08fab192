import EventStore
import Lifecycle
@testable import LifecycleLog
import Testing
import TestSupport

/// A body found in the memo is the one decoding the event makes, among events that repeat,
/// that differ in one word, and whose `seq` and `t` grow by a digit.
@Suite struct EventBodyMemoTests {
  private static let bodies: [EventBody] = [
    .sceneActivationChanged(scene: "Scene#1", from: .foregroundInactive, to: .foregroundActive),
    .sceneActivationChanged(scene: "Scene#2", from: .foregroundInactive, to: .foregroundActive),
    .sceneActivationChanged(scene: "Scene#1", from: .foregroundActive, to: .foregroundInactive),
    .applicationStateChanged(from: .inactive, to: .active),
    .applicationStateChanged(from: .active, to: .inactive),
    .notificationPosted(name: "UIApplication.didBecomeActiveNotification", handled: false, depth: 0),
    .notificationPosted(name: "UIApplication.didBecomeActiveNotification", handled: true, depth: 0),
    .notificationPosted(name: "UIApplication.didBecomeActiveNotification", handled: true, depth: 1),
    .suspended, .resumed,
    .noted(name: "budget", message: "tab\there \"quoted\"", code: nil),
  ]

  /// A log of 1,500 of `bodies`, drawn at random, at t = 997 µs apart.
  private static func writeLog(_ name: String) throws -> (path: String, written: [Event]) {
    let path = temporaryPath("lifesim-memo-tests", name)
    var rng = SplitMix64(seed: 27)
    let header = LogHeader(lifesim: "0.1.0", lua: "Lua 5.4", profile: .object([("ios", .int(17))]), scenes: true, seed: 1,
                           scripts: [])
    let writer = try LogWriter(path: path, header: header)
    var written: [Event] = []
    for i in 0..<1_500 {
      let body = Self.bodies[rng.below(Self.bodies.count)]
      written.append(Event(t: Int64(i) * 997, body))
      try writer.append(t: Int64(i) * 997, kind: body.kind) { body.encodeFields(into: &$0) }
    }
    try writer.finish(outcome: .null)
    return (path, written)
  }

  /// Each batch of the log at `path` decoded whole by `memo`, then its bodies read as lent;
  /// and how many events had a layout id.
  private static func decodeAll(_ path: String, memo: EventBodyMemo) throws -> (events: [Event], remembered: Int) {
    let strings = EventStrings(), stream = try LogEventStream(path: path)
    var events: [Event] = [], remembered = 0
    while let batch = try stream.nextBatch() {
      memo.begin()
      var times: [Int64] = []
      batch.forEach(in: 0..<batch.count, strings: strings) { e in
        if e.layoutID != nil { remembered += 1 }
        #expect((try? memo.decode(e)) != nil, "event \(e.seq)")
        times.append(e.t)
        return true
      }
      #expect(memo.count == times.count)
      events += times.enumerated().map { i, t in
        switch memo.lent(at: i) {
        case let .boxed(box): return Event(t: t, box.takeUnretainedValue().body)
        case let .alone(pointer): return Event(t: t, pointer.pointee)
        }
      }
    }
    return (events, remembered)
  }

  @Test func aRememberedBodyIsTheDecodedOne() throws {
    let (path, written) = try Self.writeLog("memo.lifelog")
    let memo = EventBodyMemo()
    let (decoded, remembered) = try Self.decodeAll(path, memo: memo)
    #expect(decoded == written)
    // All but the escaped note went through the memo, and most bodies were found there.
    #expect(remembered > 1_200)
    #expect(memo.found > 1_000)

    // The same memo on another stream starts afresh: its ids are that stream's.
    #expect(try Self.decodeAll(path, memo: memo).events == written)
  }

  /// With four slots for eleven bodies, bodies are put out of their slots while the batch
  /// still lends them: each event keeps its own, which the batch keeps alive.
  @Test func aBodyPutOutOfItsSlotIsStillLentToItsEvents() throws {
    let (path, written) = try Self.writeLog("small-memo.lifelog")
    let memo = EventBodyMemo(slots: 4)
    #expect(try Self.decodeAll(path, memo: memo).events == written)
    #expect(memo.found > 100)
    #expect(try Self.decodeAll(path, memo: memo).events == written)
  }
}
