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

  @Test func aRememberedBodyIsTheDecodedOne() throws {
    let path = temporaryPath("lifesim-memo-tests", "memo.lifelog")
    var rng = SplitMix64(seed: 27)
    let header = LogHeader(lifesim: "0.1.0", lua: "Lua 5.4", profile: .object([("ios", .int(17))]), scenes: true, seed: 1,
                           scripts: [])
    let writer = try LogWriter(path: path, header: header)
    var written: [EventBody] = []
    for i in 0..<1_500 {
      let body = Self.bodies[rng.below(Self.bodies.count)]
      written.append(body)
      try writer.append(t: Int64(i) * 997, kind: body.kind) { body.encodeFields(into: &$0) }
    }
    try writer.finish(outcome: .null)

    let memo = EventBodyMemo(), strings = EventStrings(), stream = try LogEventStream(path: path)
    var decoded: [Event] = [], remembered = 0
    while let batch = try stream.nextBatch() {
      batch.forEach(in: 0..<batch.count, strings: strings) { e in
        if e.layoutID != nil { remembered += 1 }
        let event = try? memo.event(e)
        #expect(event == (try? Event(e)), "event \(e.seq)")
        if let event { decoded.append(event) }
        return true
      }
    }
    #expect(decoded == written.enumerated().map { Event(t: Int64($0.offset) * 997, $0.element) })
    // All but the escaped note went through the memo, and most bodies were found there.
    #expect(remembered > 1_200)
    #expect(memo.found > 1_000)

    // The same memo on another stream starts afresh: its ids are that stream's.
    let other = try LogEventStream(path: path)
    var again = 0
    while let batch = try other.nextBatch() {
      batch.forEach(in: 0..<batch.count, strings: strings) { e in
        #expect((try? memo.event(e)) == (try? Event(e)), "event \(e.seq) of the second stream")
        again += 1
        return true
      }
    }
    #expect(again == 1_500)
  }
}
