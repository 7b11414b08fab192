/// Writes canonical JSON bytes: no whitespace, keys in the order written,
/// strings escaped per RFC 8259 (`"`, `\`, and control characters only).
///
/// This is the log's hot path, so it appends to a byte array and never goes
/// through Foundation's coders (see docs/log-format.md for the rules).
public struct CanonicalJSONWriter: Sendable {
  public private(set) var bytes: [UInt8]
  /// Bit i set: the container at depth i has had no member yet.
  private var firstMask: UInt64 = 0
  private var depth = 0

  public init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  public var text: String { String(decoding: bytes, as: UTF8.self) }

  public mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
    firstMask = 0
    depth = 0
  }

  // MARK: Containers

  public mutating func beginObject() { separator(); bytes.append(UInt8(ascii: "{")); push() }
  public mutating func endObject() { pop(); bytes.append(UInt8(ascii: "}")) }
  public mutating func beginArray() { separator(); bytes.append(UInt8(ascii: "[")); push() }
  public mutating func endArray() { pop(); bytes.append(UInt8(ascii: "]")) }

  /// Writes `"key":` inside an object; the value must follow.
  public mutating func key(_ key: String) {
    separator()
    appendString(key)
    bytes.append(UInt8(ascii: ":"))
    // The value that follows must not write a separator.
    firstMask |= (1 << UInt64(depth - 1))
  }

  // MARK: Scalars

  public mutating func string(_ s: String) { separator(); appendString(s) }
  public mutating func int(_ i: Int64) { separator(); appendInt(i) }
  public mutating func bool(_ b: Bool) { separator(); appendASCII(b ? "true" : "false") }
  public mutating func null() { separator(); appendASCII("null") }
  public mutating func double(_ d: Double) {
    separator()
    if d.isFinite, d == d.rounded(), abs(d) < 1e15 {
      appendInt(Int64(d)); appendASCII(".0")
    } else if d.isFinite {
      appendASCII(d.description)
    } else {
      appendASCII("null")  // JSON has no NaN or infinity
    }
  }

  public mutating func value(_ v: JSONValue) {
    switch v {
    case .null: null()
    case let .bool(b): bool(b)
    case let .int(i): int(i)
    case let .double(d): double(d)
    case let .string(s): string(s)
    case let .array(items):
      beginArray()
      for item in items { value(item) }
      endArray()
    case let .object(members):
      beginObject()
      for (k, item) in members { key(k); value(item) }
      endObject()
    }
  }

  // MARK: Fields (key + value)

  public mutating func field(_ k: String, _ s: String) { key(k); string(s) }
  public mutating func field(_ k: String, _ i: Int64) { key(k); int(i) }
  public mutating func field(_ k: String, _ i: Int) { key(k); int(Int64(i)) }
  public mutating func field(_ k: String, _ b: Bool) { key(k); bool(b) }
  public mutating func field(_ k: String, _ v: JSONValue) { key(k); value(v) }

  /// Appends raw bytes that are already canonical JSON for one value.
  public mutating func raw(_ canonical: [UInt8]) { separator(); bytes.append(contentsOf: canonical) }

  // MARK: Internals

  private mutating func push() {
    precondition(depth < 63, "JSON nesting deeper than 63")
    depth += 1
    firstMask |= (1 << UInt64(depth - 1))
  }

  private mutating func pop() {
    precondition(depth > 0, "unbalanced JSON container")
    firstMask &= ~(1 << UInt64(depth - 1))
    depth -= 1
  }

  private mutating func separator() {
    guard depth > 0 else { return }
    let bit: UInt64 = 1 << UInt64(depth - 1)
    if firstMask & bit != 0 {
      firstMask &= ~bit
    } else {
      bytes.append(UInt8(ascii: ","))
    }
  }

  private mutating func appendASCII(_ s: StaticString) {
    s.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  private mutating func appendASCII(_ s: String) { bytes.append(contentsOf: s.utf8) }

  private mutating func appendInt(_ value: Int64) {
    if value == 0 { bytes.append(UInt8(ascii: "0")); return }
    var v = value.magnitude
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                 UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buf in
      while v > 0 {
        buf[count] = UInt8(ascii: "0") + UInt8(v % 10)
        v /= 10
        count += 1
      }
      for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(buf[i]) }
    }
  }

  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  private mutating func appendString(_ s: String) {
    bytes.append(UInt8(ascii: "\""))
    var s = s
    s.withUTF8 { utf8 in
      var start = 0
      for i in 0..<utf8.count {
        let c = utf8[i]
        guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") else { continue }
        if start < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i])) }
        start = i + 1
        bytes.append(UInt8(ascii: "\\"))
        switch c {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
          bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                    Self.hexDigits[Int(c >> 4)], Self.hexDigits[Int(c & 0xF)]])
        }
      }
      if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
