import JSON

/// What a lifesim event is decoded from: its place in the log and its members by key.
/// Both a parsed `LogEvent` and a `LogEventView` read in place are one.
public protocol EventFields {
  var seq: Int64 { get }
  /// Virtual time in integer microseconds.
  var t: Int64 { get }
  var kind: EventKind { get }
  /// The member after `kind` named `key`, parsed; nil if there is none.
  subscript(key: String) -> JSONValue? { get }
  /// The string member `key`; nil if there is none or it is not a string.
  func string(_ key: String) -> String?
  /// The integer member `key`; nil if there is none or it is not an integer.
  func int(_ key: String) -> Int64?
  /// The boolean member `key`; nil if there is none or it is not `true` or `false`.
  func bool(_ key: String) -> Bool?
}

extension EventFields {
  public func string(_ key: String) -> String? { self[key]?.stringValue }
  public func int(_ key: String) -> Int64? { self[key]?.intValue }
  public func bool(_ key: String) -> Bool? { self[key]?.boolValue }
}

extension LogEvent: EventFields {}

/// An event line as `LogReader` checked it, read in place: its members are located once and
/// each is parsed only when asked for. Folding a log (`replay --state`, the exports) reads
/// every event but not every member, and builds no JSON tree for the line.
public struct LogEventView: EventFields {
  public let seq: Int64
  public let t: Int64
  public let kind: EventKind
  /// The line's canonical body (without `h`).
  public let body: [UInt8]
  /// The body's members in order; the first three are `seq`, `t` and `kind`.
  private let members: [JSONMember]

  init(seq: Int64, t: Int64, kind: EventKind, body: [UInt8], members: [JSONMember]) {
    self.seq = seq; self.t = t; self.kind = kind; self.body = body; self.members = members
  }

  /// An event body on its own (`{"seq":…,"t":…,"kind":…,…}`, without `h`), validated as JSON;
  /// nil if it is not JSON or does not start with an event's `seq`, `t` and `kind`.
  public init?(body: [UInt8]) {
    var keys: [Range<Int>] = [], members: [JSONMember] = []
    do {
      try body.withUnsafeBufferPointer { buf throws(JSONParser.Failure) in
        try JSONParser.validate(buf, scratch: &keys, members: &members)
      }
    } catch {
      return nil
    }
    let head = body.withUnsafeBufferPointer { bytes in
      members.count >= 3 && Self.equal(bytes, members[0].key, "seq") && Self.equal(bytes, members[1].key, "t")
        && Self.equal(bytes, members[2].key, "kind")
        ? (Self.value(bytes, members[0].value), Self.value(bytes, members[1].value), Self.value(bytes, members[2].value))
        : nil
    }
    guard let head, let seq = head.0?.intValue, let t = head.1?.intValue,
          let kind = head.2?.stringValue.flatMap(EventKind.init(rawValue:)) else { return nil }
    self.init(seq: seq, t: t, kind: kind, body: body, members: members)
  }

  public subscript(key: String) -> JSONValue? {
    body.withUnsafeBufferPointer { bytes -> JSONValue? in
      for m in members.dropFirst(3) where Self.equal(bytes, m.key, key) { return Self.value(bytes, m.value) }
      return nil
    }
  }

  /// The body and members, for a reader that hands the event on in place.
  func withParts<R>(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<JSONMember>) -> R) -> R {
    self.body.withUnsafeBufferPointer { b in members.withUnsafeBufferPointer { m in body(b, m) } }
  }

  static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ key: String) -> Bool {
    var key = key
    return key.withUTF8 { k in
      k.count == range.count && k.elementsEqual(UnsafeBufferPointer(rebasing: bytes[range]))
    }
  }

  /// The JSON text at `range` (already validated by the reader) as a value. Strings without
  /// escapes and integers are read directly; anything else goes through the parser.
  static func value(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> JSONValue? {
    let first = bytes[range.lowerBound]
    if first == UInt8(ascii: "\""), range.count >= 2 {
      let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
      if !bytes[inner].contains(UInt8(ascii: "\\")) {
        return .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[inner]), as: UTF8.self))
      }
    } else if first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"), range.count <= 18,
              bytes[range].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
      return .int(bytes[range].reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) })
    } else if first == UInt8(ascii: "t") {
      return .bool(true)
    } else if first == UInt8(ascii: "f") {
      return .bool(false)
    }
    return try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[range]))
  }
}
