#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A strict parser for one line of the log: RFC 8259 JSON, UTF-8 checked,
/// duplicate keys refused, nesting bounded. It never traps on bad input.
public struct JSONParser {
  /// Why a line is not acceptable JSON.
  public struct Failure: Error, Equatable, Sendable {
    public let offset: Int
    public let reason: String
  }

  /// The most bytes `validate` records members in (`JSONMember`'s offsets are 32-bit).
  public static let recordedBytesMax = Int(UInt32.max)

  /// The deepest nesting a log line may use.
  public static let depthMax = 64

  private let bytes: UnsafeBufferPointer<UInt8>
  private var i = 0
  /// False: check the grammar only and build nothing (the verify path).
  private let building: Bool
  /// True: whitespace may surround any token (a JSON document, not a log line).
  private var spaced = false

  private init(_ bytes: UnsafeBufferPointer<UInt8>, building: Bool = true) {
    self.bytes = bytes
    self.building = building
  }

  /// Raw key ranges of the objects being validated, innermost last (reused across lines).
  private var keyStack: [Range<Int>] = []
  /// Validation of a line: the outermost object's members, in order, as they are found.
  private var topMembers: [JSONMember] = []
  private var recordingMembers = false

  /// Checks that `bytes` is exactly one valid JSON value (the same rules as `parse`), building
  /// nothing. `scratch` is storage the caller keeps, so validation allocates nothing per line.
  public static func validate(_ bytes: UnsafeBufferPointer<UInt8>, scratch: inout [Range<Int>]) throws(Failure) {
    var none: [JSONMember] = []
    try validate(bytes, scratch: &scratch, members: &none, recording: false)
  }

  /// Like `validate`; with `recording`, also returns where each member of the outermost value
  /// (an object) lies in `bytes`, so that a reader can parse only the members it needs.
  /// `members` is storage the caller keeps (left empty without `recording`). A member's
  /// offsets are 32-bit (`JSONMember`): with `recording`, more than `recordedBytesMax` bytes
  /// are refused.
  public static func validate(_ bytes: UnsafeBufferPointer<UInt8>, scratch: inout [Range<Int>],
                              members: inout [JSONMember], recording: Bool = true) throws(Failure) {
    if recording, bytes.count > recordedBytesMax {
      throw Failure(offset: 0, reason: "more than \(recordedBytesMax) bytes to record members in")
    }
    var p = JSONParser(bytes, building: false)
    p.recordingMembers = recording
    swap(&p.keyStack, &scratch)
    swap(&p.topMembers, &members)
    p.keyStack.removeAll(keepingCapacity: true)
    p.topMembers.removeAll(keepingCapacity: true)
    defer { swap(&p.keyStack, &scratch); swap(&p.topMembers, &members) }
    _ = try p.value(depth: 0)
    guard p.i == bytes.count else { throw p.fail("unexpected bytes after the value") }
  }

  /// Parses exactly one JSON value filling all of `bytes`.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
    var p = JSONParser(bytes)
    let v = try p.value(depth: 0)
    guard p.i == bytes.count else { throw p.fail("unexpected bytes after the value") }
    return v
  }

  public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
    let result: Result<JSONValue, Failure> = bytes.withUnsafeBufferPointer { buf in
      do throws(Failure) { return .success(try parse(buf)) } catch { return .failure(error) }
    }
    return try result.get()
  }

  public static func parse(_ text: String) throws(Failure) -> JSONValue { try parse(Array(text.utf8)) }

  /// Parses a JSON document as RFC 8259 allows it: like `parse`, but with whitespace (space,
  /// tab, line feed, carriage return) before, between and after the tokens, as a file that
  /// `jq .` or an editor reformatted has it.
  public static func parseDocument(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
    let result: Result<JSONValue, Failure> = bytes.withUnsafeBufferPointer { buf in
      var p = JSONParser(buf)
      p.spaced = true
      do throws(Failure) {
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == buf.count else { throw p.fail("unexpected bytes after the value") }
        return .success(v)
      } catch { return .failure(error) }
    }
    return try result.get()
  }

  /// Steps over whitespace, in a document only.
  @inline(__always)
  private mutating func skipSpace() {
    guard spaced else { return }
    while !atEnd, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
  }

  private func fail(_ reason: String) -> Failure { Failure(offset: i, reason: reason) }

  private var atEnd: Bool { i >= bytes.count }

  private mutating func value(depth: Int) throws(Failure) -> JSONValue {
    guard depth < Self.depthMax else { throw fail("nested deeper than \(Self.depthMax)") }
    skipSpace()
    guard !atEnd else { throw fail("unexpected end of line") }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try object(depth: depth)
    case UInt8(ascii: "["): return try array(depth: depth)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw fail("unexpected character")
    }
  }

  private mutating func literal(_ word: StaticString) throws(Failure) {
    let n = word.utf8CodeUnitCount
    guard i + n <= bytes.count else { throw fail("unexpected end of line") }
    let w = UnsafeBufferPointer(start: word.utf8Start, count: n)
    for k in 0..<n where bytes[i + k] != w[k] { throw fail("unexpected character") }
    i += n
  }

  private mutating func object(depth: Int) throws(Failure) -> JSONValue {
    i += 1
    var members: [(String, JSONValue)] = []
    let keysBase = keyStack.count      // validation: this object's raw keys sit above here
    defer { if !building { keyStack.removeSubrange(keysBase...) } }
    var decodedKeys: [String] = []     // validation: keys that use escapes, decoded
    skipSpace()
    if !atEnd, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
    while true {
      skipSpace()
      guard !atEnd, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
      let keyStart = i + 1
      let k = try string()
      if building {
        for (existing, _) in members where existing == k { throw fail("duplicate key \"\(k)\"") }
      } else {
        let raw = keyStart..<(i - 1)
        if bytes[raw].contains(UInt8(ascii: "\\")) {
          var sub = JSONParser(UnsafeBufferPointer(rebasing: bytes[(keyStart - 1)..<i]))
          let decoded = try sub.string()
          if decodedKeys.contains(decoded) { throw fail("duplicate key \"\(decoded)\"") }
          decodedKeys.append(decoded)
        } else {
          for r in keyStack[keysBase...] where r.count == raw.count
            && memcmp(bytes.baseAddress! + r.lowerBound, bytes.baseAddress! + raw.lowerBound, r.count) == 0 {
            throw fail("duplicate key \"\(String(decoding: UnsafeBufferPointer(rebasing: bytes[raw]), as: UTF8.self))\"")
          }
          keyStack.append(raw)
          if !decodedKeys.isEmpty {
            let plain = String(decoding: UnsafeBufferPointer(rebasing: bytes[raw]), as: UTF8.self)
            if decodedKeys.contains(plain) { throw fail("duplicate key \"\(plain)\"") }
          }
        }
      }
      skipSpace()
      guard !atEnd, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
      i += 1
      let valueStart = i
      let v = try value(depth: depth + 1)
      if building { members.append((k, v)) }
      if recordingMembers, depth == 0 { topMembers.append(JSONMember(key: keyStart..<(valueStart - 2), value: valueStart..<i)) }
      skipSpace()
      guard !atEnd else { throw fail("unexpected end of line") }
      if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
      if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
      throw fail("expected ',' or '}'")
    }
  }

  private mutating func array(depth: Int) throws(Failure) -> JSONValue {
    i += 1
    var items: [JSONValue] = []
    skipSpace()
    if !atEnd, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
    while true {
      let v = try value(depth: depth + 1)
      if building { items.append(v) }
      skipSpace()
      guard !atEnd else { throw fail("unexpected end of line") }
      if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
      if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
      throw fail("expected ',' or ']'")
    }
  }

  private mutating func number() throws(Failure) -> JSONValue {
    let start = i
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard !atEnd, isDigit(bytes[i]) else { throw fail("malformed number") }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
      if !atEnd, isDigit(bytes[i]) { throw fail("number with a leading zero") }
    } else {
      while !atEnd, isDigit(bytes[i]) { i += 1 }
    }
    var integral = true
    if !atEnd, bytes[i] == UInt8(ascii: ".") {
      integral = false
      i += 1
      guard !atEnd, isDigit(bytes[i]) else { throw fail("malformed number") }
      while !atEnd, isDigit(bytes[i]) { i += 1 }
    }
    if !atEnd, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      integral = false
      i += 1
      if !atEnd, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard !atEnd, isDigit(bytes[i]) else { throw fail("malformed number") }
      while !atEnd, isDigit(bytes[i]) { i += 1 }
    }
    if !building, integral, i - start <= 18 { return .null }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
    if integral {
      guard let v = Int64(text) else { throw Failure(offset: start, reason: "integer out of range") }
      return .int(v)
    }
    guard let d = Double(text) else { throw Failure(offset: start, reason: "malformed number") }
    return .double(d)
  }

  private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

  private mutating func string() throws(Failure) -> String {
    i += 1  // opening quote
    var out: [UInt8] = []
    var runStart = i
    while true {
      guard !atEnd else { throw fail("unterminated string") }
      let c = bytes[i]
      if c == UInt8(ascii: "\"") {
        if building { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
        i += 1
        break
      }
      if c < 0x20 { throw fail("control character in a string") }
      if c == UInt8(ascii: "\\") {
        if building { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
        try escape(into: &out)
        runStart = i
        continue
      }
      if c < 0x80 { i += 1; continue }
      try skipUTF8Scalar()
    }
    return building ? String(decoding: out, as: UTF8.self) : ""
  }

  /// Checks one multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates).
  private mutating func skipUTF8Scalar() throws(Failure) {
    guard let (n, lo, hi) = Self.utf8Lead(bytes[i]) else { throw fail("invalid UTF-8") }
    guard i + n < bytes.count else { throw fail("invalid UTF-8") }
    let b1 = bytes[i + 1]
    guard b1 >= lo, b1 <= hi else { throw fail("invalid UTF-8") }
    for k in 2..<(n + 1) where k <= n {
      guard bytes[i + k] & 0xC0 == 0x80 else { throw fail("invalid UTF-8") }
    }
    i += n + 1
  }

  private mutating func escape(into out: inout [UInt8]) throws(Failure) {
    i += 1
    guard !atEnd else { throw fail("unterminated string") }
    let c = bytes[i]
    i += 1
    switch c {
    case UInt8(ascii: "\""): out.append(c)
    case UInt8(ascii: "\\"): out.append(c)
    case UInt8(ascii: "/"): out.append(c)
    case UInt8(ascii: "b"): out.append(0x08)
    case UInt8(ascii: "f"): out.append(0x0C)
    case UInt8(ascii: "n"): out.append(0x0A)
    case UInt8(ascii: "r"): out.append(0x0D)
    case UInt8(ascii: "t"): out.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try hex4()
      if (0xD800...0xDBFF).contains(scalar) {
        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
          throw fail("unpaired surrogate")
        }
        i += 2
        let low = try hex4()
        guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate") }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(scalar) {
        throw fail("unpaired surrogate")
      }
      guard let u = Unicode.Scalar(scalar) else { throw fail("invalid escape") }
      out.append(contentsOf: String(Character(u)).utf8)
    default:
      throw fail("invalid escape")
    }
  }

  /// For the first byte of a multi-byte UTF-8 sequence: how many continuation bytes follow,
  /// and the range the first of them must be in (RFC 3629: no overlongs, no surrogates); nil
  /// for a byte no such sequence starts with.
  @inline(__always)
  static func utf8Lead(_ c: UInt8) -> (continuations: Int, low: UInt8, high: UInt8)? {
    switch c {
    case 0xC2...0xDF: return (1, 0x80, 0xBF)
    case 0xE0: return (2, 0xA0, 0xBF)
    case 0xE1...0xEC, 0xEE...0xEF: return (2, 0x80, 0xBF)
    case 0xED: return (2, 0x80, 0x9F)
    case 0xF0: return (3, 0x90, 0xBF)
    case 0xF1...0xF3: return (3, 0x80, 0xBF)
    case 0xF4: return (3, 0x80, 0x8F)
    default: return nil
    }
  }

  /// The value of one hex digit (either case); nil for another byte.
  @inline(__always)
  static func hexValue(_ c: UInt8) -> UInt32? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }

  private mutating func hex4() throws(Failure) -> UInt32 {
    guard i + 4 <= bytes.count else { throw fail("invalid \\u escape") }
    var v: UInt32 = 0
    for _ in 0..<4 {
      guard let d = Self.hexValue(bytes[i]) else { throw fail("invalid \\u escape") }
      v = v << 4 | d
      i += 1
    }
    return v
  }
}

/// Where one member of an object lies in a line: its key's bytes (without quotes, escapes
/// undecoded) and its value's JSON text.
///
/// Kept as four 32-bit offsets, 16 bytes: the fold writes one for each member of each event
/// line, ten a line in a typical log, and at 32 bytes they were more bytes written than the log
/// read. `JSONParser.validate` records members in at most `recordedBytesMax` bytes, so the
/// offsets fit.
public struct JSONMember: Equatable, Sendable {
  @usableFromInline let keyStart: UInt32
  @usableFromInline let keyEnd: UInt32
  @usableFromInline let valueStart: UInt32
  @usableFromInline let valueEnd: UInt32

  /// The key's bytes, without its quotes.
  @inlinable
  public var key: Range<Int> { Range(uncheckedBounds: (Int(keyStart), Int(keyEnd))) }
  /// The value's JSON text.
  @inlinable
  public var value: Range<Int> { Range(uncheckedBounds: (Int(valueStart), Int(valueEnd))) }

  /// Inlinable: the fold's member lookups make one for each member of each event line.
  @inlinable
  package init(key: Range<Int>, value: Range<Int>) {
    precondition(key.upperBound <= UInt32.max && value.upperBound <= UInt32.max, "a member beyond 4 GiB into its line")
    keyStart = UInt32(truncatingIfNeeded: key.lowerBound)
    keyEnd = UInt32(truncatingIfNeeded: key.upperBound)
    valueStart = UInt32(truncatingIfNeeded: value.lowerBound)
    valueEnd = UInt32(truncatingIfNeeded: value.upperBound)
  }
}
