import JSON

/// The kinds of event line a log holds (docs/log-format.md).
public enum EventKind: String, CaseIterable, Sendable {
  case input, transition, callback, `return`, call, notification, system, crash, expect, note
}

/// The version of the `.lifelog` format this build writes and reads.
public let logFormatVersion: Int64 = 1

/// A script embedded in the header: enough to re-run the log with no files.
public struct EmbeddedScript: Equatable, Sendable {
  /// `scenario`, `app`, or `require`.
  public var role: String
  /// The path the user gave, or the module path for a `require`d file.
  public var path: String
  /// Lowercase hex SHA-256 of `source`'s UTF-8 bytes.
  public var sha256: String
  public var source: String

  public init(role: String, path: String, source: String) {
    self.role = role
    self.path = path
    self.source = source
    self.sha256 = HashChain.hex(of: Array(source.utf8))
  }

  init(role: String, path: String, sha256: String, source: String) {
    self.role = role; self.path = path; self.sha256 = sha256; self.source = source
  }
}

/// Line 1 of every log.
public struct LogHeader: Equatable, Sendable {
  public var format: Int64
  public var lifesim: String
  public var lua: String
  /// The platform profile with every knob (opaque to EventStore).
  public var profile: JSONValue
  public var scenes: Bool
  public var seed: Int64
  public var scripts: [EmbeddedScript]

  public init(format: Int64 = logFormatVersion, lifesim: String, lua: String, profile: JSONValue,
              scenes: Bool, seed: Int64, scripts: [EmbeddedScript]) {
    self.format = format; self.lifesim = lifesim; self.lua = lua; self.profile = profile
    self.scenes = scenes; self.seed = seed; self.scripts = scripts
  }

  func encode(into w: inout CanonicalJSONWriter) {
    w.beginObject()
    w.field("kind", "header")
    w.field("format", format)
    w.field("lifesim", lifesim)
    w.field("lua", lua)
    w.field("profile", profile)
    w.field("scenes", scenes)
    w.field("seed", seed)
    w.key("scripts")
    w.beginArray()
    for s in scripts {
      w.beginObject()
      w.field("role", s.role)
      w.field("path", s.path)
      w.field("sha256", s.sha256)
      w.field("source", s.source)
      w.endObject()
    }
    w.endArray()
    w.endObject()
  }
}

/// One event line: `seq`, `t` and `kind` first, then the kind's own fields.
public struct LogEvent: Equatable, Sendable {
  public var seq: Int64
  /// Virtual time in integer microseconds.
  public var t: Int64
  public var kind: EventKind
  /// Every member after `kind`, in order (`h` excluded).
  public var fields: [(String, JSONValue)]

  public init(seq: Int64, t: Int64, kind: EventKind, fields: [(String, JSONValue)]) {
    self.seq = seq; self.t = t; self.kind = kind; self.fields = fields
  }

  public subscript(key: String) -> JSONValue? {
    for (k, v) in fields where k == key { return v }
    return nil
  }

  public static func == (a: LogEvent, b: LogEvent) -> Bool {
    a.seq == b.seq && a.t == b.t && a.kind == b.kind && JSONValue.object(a.fields) == JSONValue.object(b.fields)
  }

  /// The canonical body of this event (without `h`).
  public var canonicalBody: [UInt8] {
    var w = CanonicalJSONWriter()
    w.beginObject()
    w.field("seq", seq)
    w.field("t", t)
    w.field("kind", kind.rawValue)
    for (k, v) in fields { w.member(k, v) }
    w.endObject()
    return w.bytes
  }
}

/// The last line: how many events there are and how the run ended.
public struct LogTrailer: Equatable, Sendable {
  public var events: Int64
  /// Virtual time at the end of the run, µs.
  public var t: Int64
  /// Final state, terminations, expectation results (opaque to EventStore).
  public var outcome: JSONValue

  public init(events: Int64, t: Int64, outcome: JSONValue) {
    self.events = events; self.t = t; self.outcome = outcome
  }

  func encode(into w: inout CanonicalJSONWriter) {
    w.beginObject()
    w.field("kind", "end")
    w.field("events", events)
    w.field("t", t)
    w.field("outcome", outcome)
    w.endObject()
  }
}
