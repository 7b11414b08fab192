import EventStore
import JSON
import Lifecycle
import LifecycleLog
import TestSupport

/// An event as the tests write it: its time, kind and members after `seq` and `t`.
struct Recorded {
  var t: Int64
  var kind: EventKind
  var fields: [(String, JSONValue)]

  static func launch(at line: Int, t: Int64 = 0) -> Recorded {
    Recorded(t: t, kind: .input, fields: [("name", .string("launch")), ("at", .string("s.lua:\(line)"))])
  }

  static func note(_ message: String, t: Int64 = 0) -> Recorded {
    Recorded(t: t, kind: .note, fields: [("name", .string("print")), ("message", .string(message))])
  }

  /// The event numbered `seq`, as a re-run would produce it.
  func event(seq: Int64) throws -> Event { try Event(LogEvent(seq: seq, t: t, kind: kind, fields: fields)) }
}

/// A header lifesim could have written (its profile whole): the library's readers check it.
let testHeader = LogHeader(lifesim: "test", lua: "Lua 5.4", profile: Profile(ios: 17).json, scenes: true, seed: 1,
                           scripts: [EmbeddedScript(role: "scenario", path: "s.lua", source: "launch()\n")])

/// Writes a log of `events` at a fresh path; with an outcome, a trailer closes it.
func writeLog(_ name: String, _ events: [Recorded], outcome: JSONValue? = .object([("state", .string("active"))])) throws -> String {
  let path = temporaryPath("lifesim-comparison", name)
  let writer = try LogWriter(path: path, header: testHeader)
  for e in events { try writer.append(LogEvent(seq: 0, t: e.t, kind: e.kind, fields: e.fields)) }
  if let outcome { try writer.finish(outcome: outcome) } else { try writer.flush() }
  return path
}
