import JSON

/// One profile knob, declared once: its name, unit, default per iOS version and doc. The
/// profile's defaults, its header record (`recordKey`, in table order), the header's decoding,
/// the Lua override (`knobs = { name = value }`) and the knob table of docs/lua-api.md all
/// come from `Profile.knobs`.
public struct KnobSpec: Sendable {
  /// How a scenario writes the knob's value.
  public enum Unit: Sendable, Equatable {
    case flag
    /// One of these words.
    case choice([String])
    /// Seconds from 0 to a year in a scenario; µs in the profile and the header (`name_us`).
    case seconds
    /// A whole number in this range.
    case count(ClosedRange<Int64>)
  }

  /// The name a scenario's `knobs` table uses.
  public let name: String
  public let unit: Unit
  /// The default as the docs' table states it (`iOS ≥ 13`, `5 s`).
  public let defaultText: String
  /// What it decides, as the docs' table states it.
  public let doc: String
  /// What a header lacking the knob (written before it existed) replays with; nil: it is required.
  let valueWhenMissing: JSONValue?
  /// The header leaves the knob out at `valueWhenMissing`, so that runs it does not change keep
  /// the log bytes they had before it existed.
  var omittedAtMissingValue = false
  /// The knob in the profile as the header records it.
  let read: @Sendable (Profile) -> JSONValue
  /// Sets the knob from a header's value; false when the value has the wrong type.
  let write: @Sendable (inout Profile, JSONValue) -> Bool
  /// The default for an iOS version and an SDK, as the header records it.
  let defaultValue: @Sendable (_ ios: Int, _ sdk: Int) -> JSONValue

  /// The header's key: the name, with `_us` for durations.
  public var recordKey: String { unit == .seconds ? name + "_us" : name }

  /// The longest duration a scenario may give a knob, in seconds (a year).
  static let secondsMax: Int64 = 86_400 * 365

  /// The values a header may record for a number knob (µs for a duration): what a scenario may
  /// set, so a header beyond them was not written by lifesim. nil for flags and choices.
  public var recordRange: ClosedRange<Int64>? {
    switch unit {
    case .flag, .choice: return nil
    case .seconds: return 0...(Self.secondsMax * VirtualTime.microsecondsPerSecond)
    case let .count(range): return range
    }
  }

  /// The row of docs/lua-api.md's knob table.
  public var docRow: String { "| `\(name)` | \(defaultText) | \(doc) |" }

  /// How the table reads and writes a knob's profile field. Closures, not key paths: each key
  /// path is built at run time, with its class's metadata, when the table is first used:
  /// building the table that way cost 640,000 instructions at every start, a seventh of a one-verb run.
  typealias Read<T> = @Sendable (Profile) -> T
  typealias Write<T> = @Sendable (inout Profile, T) -> Void

  static func flag(_ name: String, get: @escaping Read<Bool>, set: @escaping Write<Bool>, _ value: @escaping @Sendable (Int) -> Bool,
                   missing: Bool? = nil, default defaultText: String, _ doc: String) -> KnobSpec {
    typed(name, .flag, get, set, { ios, _ in value(ios) }, missing: missing.map(JSONValue.bool), defaultText, doc, record: JSONValue.bool) { $0.boolValue }
  }

  static func choice<E: RawRepresentable & CaseIterable & Sendable>(
    _ name: String, get: @escaping Read<E>, set: @escaping Write<E>, _ value: @escaping @Sendable (Int) -> E,
    missing: E? = nil, default defaultText: String, _ doc: String
  ) -> KnobSpec where E.RawValue == String {
    typed(name, .choice(E.allCases.map { $0.rawValue }), get, set, { ios, _ in value(ios) }, missing: missing.map { .string($0.rawValue) },
          defaultText, doc, record: { .string($0.rawValue) }) { $0.stringValue.flatMap(E.init(rawValue:)) }
  }

  /// A duration: `seconds` gives the default in whole seconds.
  static func seconds(_ name: String, get: @escaping Read<Int64>, set: @escaping Write<Int64>, _ seconds: @escaping @Sendable (Int) -> Int64,
                      missingSeconds: Int64? = nil, default defaultText: String, _ doc: String) -> KnobSpec {
    typed(name, .seconds, get, set, { ios, _ in seconds(ios) * VirtualTime.microsecondsPerSecond },
          missing: missingSeconds.map { .int($0 * VirtualTime.microsecondsPerSecond) }, defaultText, doc,
          record: JSONValue.int) { $0.intValue }
  }

  /// A duration whose default is not a whole number of seconds: `us` gives it in µs.
  static func microseconds(_ name: String, get: @escaping Read<Int64>, set: @escaping Write<Int64>, _ us: @escaping @Sendable (Int) -> Int64,
                           missing: Int64? = nil, default defaultText: String, _ doc: String) -> KnobSpec {
    typed(name, .seconds, get, set, { ios, _ in us(ios) }, missing: missing.map(JSONValue.int), defaultText, doc,
          record: JSONValue.int) { $0.intValue }
  }

  static func count(_ name: String, get: @escaping Read<Int64>, set: @escaping Write<Int64>, _ range: ClosedRange<Int64>,
                    _ value: @escaping @Sendable (Int) -> Int64, missing: Int64? = nil, default defaultText: String,
                    _ doc: String) -> KnobSpec {
    typed(name, .count(range), get, set, { ios, _ in value(ios) }, missing: missing.map(JSONValue.int), defaultText, doc,
          record: JSONValue.int) { $0.intValue }
  }

  /// A knob stored in the field `get` reads and `set` writes: `record` writes its value as the
  /// header does, `parse` reads it back.
  private static func typed<T>(
    _ name: String, _ unit: Unit, _ get: @escaping Read<T>, _ set: @escaping Write<T>, _ value: @escaping @Sendable (_ ios: Int, _ sdk: Int) -> T,
    missing: JSONValue?, _ defaultText: String, _ doc: String,
    record: @escaping @Sendable (T) -> JSONValue, parse: @escaping @Sendable (JSONValue) -> T?
  ) -> KnobSpec {
    KnobSpec(name: name, unit: unit, defaultText: defaultText, doc: doc, valueWhenMissing: missing,
             read: { record(get($0)) },
             write: { profile, json in
               guard let v = parse(json) else { return false }
               set(&profile, v)
               return true
             },
             defaultValue: { record(value($0, $1)) })
  }

  /// A flag whose default depends on the SDK as well as the iOS version. The header records it
  /// only when true: a header without it (every log before it existed) reads false.
  static func sdkFlag(_ name: String, get: @escaping Read<Bool>, set: @escaping Write<Bool>,
                      _ value: @escaping @Sendable (_ ios: Int, _ sdk: Int) -> Bool, default defaultText: String, _ doc: String) -> KnobSpec {
    typed(name, .flag, get, set, value, missing: .bool(false), defaultText, doc, record: JSONValue.bool) { $0.boolValue }
      .recordedOnlyWhenSet()
  }

  /// The knob left out of the header at the value its absence reads as (a knob added after logs
  /// were written: runs that do not set it keep their bytes).
  func recordedOnlyWhenSet() -> KnobSpec {
    var knob = self
    knob.omittedAtMissingValue = true
    return knob
  }

  /// A scenario's value for this knob as the header would record it, or why it is refused.
  func recordValue(_ value: Profile.KnobValue) throws(Profile.KnobError) -> JSONValue {
    switch unit {
    case .flag:
      guard case let .bool(b) = value else { throw Profile.KnobError(description: "knob \(name) takes true or false") }
      return .bool(b)
    case let .choice(words):
      guard case let .string(s) = value, words.contains(s) else {
        throw Profile.KnobError(description: "knob \(name) takes one of \(words.map { "\"\($0)\"" }.joined(separator: ", "))")
      }
      return .string(s)
    case .seconds:
      guard case let .number(s) = value, s >= 0, s <= Double(Self.secondsMax) else {
        throw Profile.KnobError(description: "knob \(name) takes a number of seconds from 0 to \(Self.secondsMax)")
      }
      return .int(VirtualTime.microseconds(seconds: s))
    case let .count(range):
      guard case let .number(n) = value, n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
        throw Profile.KnobError(description: "knob \(name) takes a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return .int(Int64(n))
    }
  }
}
