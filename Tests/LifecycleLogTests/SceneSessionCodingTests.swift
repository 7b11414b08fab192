import EventStore
import JSON
import Testing
@testable import Lifecycle
import LifecycleLog

/// The `session` member of the events that name a window (docs/log-format.md): written only
/// when named, read back as written, and a value from a damaged log refused with its reason,
/// never a trap.
@Suite struct SceneSessionCodingTests {
  @Test func theSessionIsWrittenOnlyWhenNamedAndReadBack() throws {
    #expect(canonicalLine(.sceneSessionChanged(created: false)) == #"{"seq":1,"t":3,"kind":"transition","name":"sceneSession","to":"discarded"}"#)
    #expect(canonicalLine(.sceneSessionChanged(created: false, session: 2))
              == #"{"seq":1,"t":3,"kind":"transition","name":"sceneSession","to":"discarded","session":2}"#)
    #expect(canonicalLine(.sceneConnected(scene: "Scene#4", session: 1))
              == #"{"seq":1,"t":3,"kind":"transition","name":"sceneConnected","target":"Scene#4","session":1}"#)
    let activity = JSONValue.object([("activityType", .string("edit"))])
    let bodies: [EventBody] = [
      .sceneSessionChanged(created: true), .sceneSessionChanged(created: false, session: 3), .sceneConnected(scene: "Scene#2"),
      .sceneConnected(scene: "Scene#5", session: 2), .restorationChanged(.activitySaved(activity)),
      .restorationChanged(.activitySaved(activity, session: 2)), .restorationChanged(.activityDeleted(why: "closed", session: 1)),
    ]
    for (i, body) in bodies.enumerated() {
      #expect(try Event(Event(t: 5, body).logEvent(seq: Int64(i + 1))) == Event(t: 5, body))
    }
  }

  @Test(arguments: [JSONValue.int(0), .int(-1), .int(Int64.max), .int(Int64(Int32.max) + 1), .string("x"), .null])
  func aSessionNoRunNamesIsRefused(_ value: JSONValue) throws {
    for (name, fields) in [("sceneSession", [("name", JSONValue.string("sceneSession")), ("to", .string("discarded"))]),
                           ("sceneConnected", [("name", .string("sceneConnected")), ("target", .string("Scene#2"))])] {
      let event = LogEvent(seq: 4, t: 0, kind: .transition, fields: fields + [("session", value)])
      #expect(throws: Event.DecodingError.self, "\(name) \(value.canonicalText)") { try Event(event) }
    }
    let saved = LogEvent(seq: 4, t: 0, kind: .transition, fields: [
      ("name", .string("restorationActivitySaved")), ("activity", .object([])), ("session", value)])
    #expect(throws: Event.DecodingError.self) { try Event(saved) }
  }

  /// Why decoding `event` fails (nil: it decodes).
  private func reason(_ event: LogEvent) -> String? {
    do { _ = try Event(event); return nil } catch { return (error as? Event.DecodingError)?.reason }
  }

  @Test func aWrongKindOfSessionSaysSo() throws {
    let event = LogEvent(seq: 4, t: 0, kind: .transition, fields: [
      ("name", .string("sceneSession")), ("to", .string("discarded")), ("session", .string("x"))])
    #expect(reason(event) == "session must be a whole number, not \"x\"")
    let big = LogEvent(seq: 4, t: 0, kind: .transition, fields: [
      ("name", .string("sceneConnected")), ("target", .string("Scene#2")), ("session", .int(Int64.max))])
    #expect(reason(big) == "session 9223372036854775807 is outside its range 1…2147483647")
  }
}
