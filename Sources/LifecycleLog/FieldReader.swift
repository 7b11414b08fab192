import EventStore
import JSON
import Lifecycle

/// An event's members as decoding reads them: each getter throws `Event.DecodingError` naming
/// the member that is missing or out of its range.
struct FieldReader<Fields: EventFields> {
  let fields: Fields

  func fail(_ reason: String) -> Event.DecodingError { Event.DecodingError(seq: fields.seq, reason: reason) }

  func str(_ k: String) throws(Event.DecodingError) -> String {
    guard let v = fields.string(k) else { throw fail("missing \"\(k)\"") }
    return v
  }

  func optionalString(_ k: String) -> String? { fields.string(k) }

  /// The scene session an event names (`session`), if any: a number from 1 to `Int32.max`.
  func sessionNumber() throws(Event.DecodingError) -> Int? {
    guard let value = fields["session"] else { return nil }
    guard let v = value.intValue else { throw fail("session must be a whole number, not \(value.canonicalText.prefix(40))") }
    guard (1...Int64(Int32.max)).contains(v) else { throw fail("session \(v) is outside its range 1…\(Int32.max)") }
    return Int(v)
  }

  func int(_ k: String) throws(Event.DecodingError) -> Int64 {
    guard let v = fields.int(k) else { throw fail("missing \"\(k)\"") }
    return v
  }

  /// A duration or time, µs. One no run can reach (past the latest time a log holds) would
  /// overflow the fold's sums.
  func micros(_ k: String) throws(Event.DecodingError) -> Int64 {
    let v = try int(k)
    guard (0...LogLimits.timeMaxUs).contains(v) else { throw fail("\(k) \(v) is outside its range 0…\(LogLimits.timeMaxUs)") }
    return v
  }

  func depth() throws(Event.DecodingError) -> Int {
    let v = try int("depth")
    guard (0...Event.depthMax).contains(v) else { throw fail("depth \(v) is outside its range 0…\(Event.depthMax)") }
    return Int(v)
  }

  func bool(_ k: String) throws(Event.DecodingError) -> Bool {
    guard let v = fields.bool(k) else { throw fail("missing \"\(k)\"") }
    return v
  }

  func raw<E: RawRepresentable>(_ k: String) throws(Event.DecodingError) -> E where E.RawValue == String {
    guard let v = E(rawValue: try str(k)) else { throw fail("bad \"\(k)\"") }
    return v
  }
}
