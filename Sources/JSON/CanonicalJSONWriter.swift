/// Writes canonical JSON bytes: no whitespace, keys in the order written,
/// strings escaped per RFC 8259 (`"`, `\`, and control characters only).
///
/// This is the log's hot path (every event of every run), so it never goes through
/// Foundation's coders (see docs/log-format.md for the rules), and it owns its bytes
/// outright: a write is a capacity check and stores into raw memory. Being `~Copyable`,
/// it needs no copy-on-write check per write (measured: that check and the calls around
/// it cost more than the bytes themselves).
public struct CanonicalJSONWriter: ~Copyable {
  @usableFromInline var base: UnsafeMutablePointer<UInt8>
  @usableFromInline var capacity: Int
  /// The number of bytes written (`count`).
  @usableFromInline var written = 0
  /// Bit i set: the container at depth i has had no member yet.
  @usableFromInline var firstMask: UInt64 = 0
  @usableFromInline var depth = 0

  public init(capacity: Int = 256) {
    self.capacity = max(capacity, 64)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// The number of bytes written.
  public var count: Int { written }

  /// The bytes it can hold before it grows.
  public var capacityBytes: Int { capacity }

  /// What was written (a copy; `withBytes` reads it in place).
  public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: written)) }

  public var text: String { String(decoding: UnsafeBufferPointer(start: base, count: written), as: UTF8.self) }

  /// Reads what was written without copying it.
  public func withBytes<R, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> R) throws(Failure) -> R {
    try body(UnsafeRawBufferPointer(start: base, count: written))
  }

  /// Takes back everything written after the first `count` bytes (a complete value must end there).
  public mutating func truncate(to count: Int) {
    precondition(count <= written && depth == 0, "truncate to a point between complete values")
    written = count
  }

  public mutating func removeAll() {
    written = 0
    firstMask = 0
    depth = 0
  }

  /// Trades storage with `other`: this writer takes what `other` wrote (and its room), and
  /// `other` what this one wrote. Hands a batch of complete values on without copying it.
  public mutating func exchange(with other: inout CanonicalJSONWriter) {
    precondition(depth == 0 && other.depth == 0, "exchange between complete values")
    (base, other.base) = (other.base, base)
    (capacity, other.capacity) = (other.capacity, capacity)
    (written, other.written) = (other.written, written)
    firstMask = 0
    other.firstMask = 0
  }

  /// Ends a JSON Lines record: a newline after a complete top-level value.
  public mutating func endLine() {
    precondition(depth == 0, "a line ends only after a complete value")
    byte(UInt8(ascii: "\n"))
    firstMask = 0
  }

  /// Writes `bytes` as they are, between complete values: the binary framing of a batch of
  /// values (a log writer's event headers), or lines already complete. Never part of a value.
  @inlinable
  public mutating func verbatim(_ bytes: UnsafeRawBufferPointer) {
    precondition(depth == 0, "verbatim bytes between complete values")
    guard let source = bytes.baseAddress else { return }
    write(max: bytes.count) { p in
      Self.copy(to: p, from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
      return bytes.count
    }
  }

  /// Writes `text` as it is, between complete values (`verbatim`).
  @inlinable
  public mutating func verbatim(_ text: StaticString) {
    verbatim(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  // MARK: Containers

  /// Opens an object whose brace and first members are written elsewhere (a log line's
  /// `seq`, `t` and `kind`, written by the log thread): writes nothing, and the next member
  /// gets its comma. `endObject` closes it as any other.
  @inlinable
  public mutating func continueObject() {
    push()
    firstMask &= ~(1 << UInt64(depth - 1))
  }

  @inlinable
  public mutating func beginObject() { separator(); byte(UInt8(ascii: "{")); push() }
  @inlinable
  public mutating func endObject() { pop(); byte(UInt8(ascii: "}")) }
  public mutating func beginArray() { separator(); byte(UInt8(ascii: "[")); push() }
  public mutating func endArray() { pop(); byte(UInt8(ascii: "]")) }

  /// Writes `"key":` inside an object; the value must follow. Keys are the log's own
  /// member names, so they are literals that need no escaping: copied, not scanned.
  @inlinable @inline(__always)
  public mutating func key(_ key: StaticString) {
    precondition(depth > 0, "a key outside an object")
    let comma = needsComma()
    let n = key.utf8CodeUnitCount
    write(max: n + 4) { p in
      var i = 0
      if comma { p[0] = UInt8(ascii: ","); i = 1 }
      p[i] = UInt8(ascii: "\"")
      Self.copy(to: p + i + 1, from: key.utf8Start, count: n)
      p[i + n + 1] = UInt8(ascii: "\"")
      p[i + n + 2] = UInt8(ascii: ":")
      return i + n + 3
    }
    valueFollows()
  }

  /// Writes `"key":` for a key known only at run time (escaped like any string).
  public mutating func key(dynamic key: String) {
    separator()
    appendString(key)
    byte(UInt8(ascii: ":"))
    valueFollows()
  }

  // MARK: Scalars

  @inlinable @inline(__always)
  public mutating func string(_ s: String) { separator(); appendString(s) }
  @inlinable @inline(__always)
  public mutating func int(_ i: Int64) { separator(); appendInt(i) }
  @inlinable @inline(__always)
  public mutating func bool(_ b: Bool) { separator(); appendASCII(b ? "true" : "false") }
  public mutating func null() { separator(); appendASCII("null") }
  public mutating func double(_ d: Double) {
    separator()
    if d.isFinite, d == d.rounded(), abs(d) < 1e15 {
      appendInt(Int64(d)); appendASCII(".0")
    } else if d.isFinite {
      var text = d.description
      text.withUTF8 { utf8 in write(max: utf8.count) { p in
        p.update(from: utf8.baseAddress!, count: utf8.count)
        return utf8.count
      } }
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
      for (k, item) in members { key(dynamic: k); value(item) }
      endObject()
    }
  }

  // MARK: Fields (key + value)

  @inlinable @inline(__always)
  public mutating func field(_ k: StaticString, _ s: String) { key(k); string(s) }
  @inlinable @inline(__always)
  public mutating func field(_ k: StaticString, _ i: Int64) { key(k); int(i) }
  @inlinable @inline(__always)
  public mutating func field(_ k: StaticString, _ i: Int) { key(k); int(Int64(i)) }
  @inlinable @inline(__always)
  public mutating func field(_ k: StaticString, _ b: Bool) { key(k); bool(b) }
  public mutating func field(_ k: StaticString, _ v: JSONValue) { key(k); value(v) }
  /// A member whose value is `text`, a literal that needs no escape (checked in debug builds).
  @inlinable
  public mutating func field(_ k: StaticString, literal text: StaticString) {
    assert(!EscapeScan.needsEscaping(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)), "\(text) needs escaping")
    key(k)
    separator()  // none after a key: notes that the value came, as `string` and `int` do
    write(max: text.utf8CodeUnitCount + 2) { p in
      p[0] = UInt8(ascii: "\"")
      Self.copy(to: p + 1, from: text.utf8Start, count: text.utf8CodeUnitCount)
      p[text.utf8CodeUnitCount + 1] = UInt8(ascii: "\"")
      return text.utf8CodeUnitCount + 2
    }
  }

  /// A member whose value is an integer the caller keeps as its canonical digits (`int`'s text).
  @inlinable
  public mutating func field(_ k: StaticString, digits: UnsafeRawBufferPointer) {
    assert(!digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }, "not digits")
    key(k)
    separator()
    write(max: digits.count) { p in
      Self.copy(to: p, from: digits.baseAddress!.assumingMemoryBound(to: UInt8.self), count: digits.count)
      return digits.count
    }
  }

  /// A member whose key is known only at run time (a generic record's fields).
  public mutating func member(_ k: String, _ v: JSONValue) { key(dynamic: k); value(v) }

  /// Appends raw bytes that are already canonical JSON for one value.
  public mutating func raw(_ canonical: [UInt8]) {
    separator()
    canonical.withUnsafeBufferPointer { src in write(max: src.count) { p in
      p.update(from: src.baseAddress!, count: src.count)
      return src.count
    } }
  }

  // MARK: Internals

  /// Reserves `max` bytes, lets `fill` write at most that many, and keeps the number it returns.
  @inlinable @inline(__always)
  mutating func write(max: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Int) {
    if written + max > capacity { grow(to: written + max) }
    let n = fill(base + written)
    assert(n <= max, "wrote past the reservation")
    written += n
  }

  /// Copies `n` bytes that do not overlap. A key, a kind or a number is a few bytes, and
  /// `memcpy` called for each was 7 % of `run`'s main thread: up to 16 bytes are copied as
  /// two loads and two stores of the first and last words, which may overlap each other.
  @inlinable @inline(__always)
  static func copy(to p: UnsafeMutablePointer<UInt8>, from s: UnsafePointer<UInt8>, count n: Int) {
    let to = UnsafeMutableRawPointer(p), from = UnsafeRawPointer(s)
    if n >= 8, n <= 16 {
      let first = from.loadUnaligned(as: UInt64.self), last = from.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
      to.storeBytes(of: first, as: UInt64.self)
      to.storeBytes(of: last, toByteOffset: n &- 8, as: UInt64.self)
    } else if n >= 4, n < 8 {
      let first = from.loadUnaligned(as: UInt32.self), last = from.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
      to.storeBytes(of: first, as: UInt32.self)
      to.storeBytes(of: last, toByteOffset: n &- 4, as: UInt32.self)
    } else if n < 4 {
      for i in 0..<n { p[i] = s[i] }
    } else {
      p.update(from: s, count: n)
    }
  }

  @usableFromInline @inline(never)
  mutating func grow(to needed: Int) {
    (base, capacity) = RawStorage.grown(base, keeping: written, capacity: capacity, needed: needed)
  }

  @inlinable @inline(__always)
  mutating func byte(_ b: UInt8) {
    write(max: 1) { p in p[0] = b; return 1 }
  }

  @inlinable
  mutating func push() {
    precondition(depth < 63, "JSON nesting deeper than 63")
    depth += 1
    firstMask |= (1 << UInt64(depth - 1))
  }

  @inlinable
  mutating func pop() {
    precondition(depth > 0, "unbalanced JSON container")
    firstMask &= ~(1 << UInt64(depth - 1))
    depth -= 1
  }

  /// The value after a key must not write a separator.
  @inlinable @inline(__always)
  mutating func valueFollows() { firstMask |= (1 << UInt64(depth - 1)) }

  /// Whether the next member or item needs a comma before it (and notes that one came).
  @inlinable @inline(__always)
  mutating func needsComma() -> Bool {
    guard depth > 0 else { return false }
    let bit: UInt64 = 1 << UInt64(depth - 1)
    if firstMask & bit != 0 {
      firstMask &= ~bit
      return false
    }
    return true
  }

  @inlinable @inline(__always)
  mutating func separator() {
    if needsComma() { byte(UInt8(ascii: ",")) }
  }

  @inlinable
  mutating func appendASCII(_ s: StaticString) {
    write(max: s.utf8CodeUnitCount) { p in
      Self.copy(to: p, from: s.utf8Start, count: s.utf8CodeUnitCount)
      return s.utf8CodeUnitCount
    }
  }

  @inlinable
  mutating func appendInt(_ value: Int64) {
    // 20 digits and a sign cover every Int64: counted first, then written from the last, two at a time.
    write(max: 21) { p in
      var v = value.magnitude
      var o = 0
      if value < 0 { p[0] = UInt8(ascii: "-"); o = 1 }
      var digits = 1, power: UInt64 = 10
      while digits < 20, v >= power { digits += 1; power &*= 10 }
      var end = o + digits
      while v >= 100 {
        let pair = UInt8(truncatingIfNeeded: v % 100)
        v /= 100
        end -= 2
        p[end] = UInt8(ascii: "0") &+ pair / 10
        p[end + 1] = UInt8(ascii: "0") &+ pair % 10
      }
      if v >= 10 {
        p[o] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v / 10)
        p[o + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
      } else {
        p[o] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
      }
      return o + digits
    }
  }

  @usableFromInline static let hexDigits: StaticString = "0123456789abcdef"

  @inlinable
  mutating func appendString(_ s: String) {
    var s = s
    s.withUTF8 { utf8 in
      // The log's strings rarely need escaping: a scan a word at a time, then one copy.
      if !EscapeScan.needsEscaping(utf8) {
        write(max: utf8.count + 2) { p in
          p[0] = UInt8(ascii: "\"")
          if let base = utf8.baseAddress { Self.copy(to: p + 1, from: base, count: utf8.count) }
          p[utf8.count + 1] = UInt8(ascii: "\"")
          return utf8.count + 2
        }
        return
      }
      // Worst case: every byte a \u00XX escape, and the two quotes.
      write(max: utf8.count * 6 + 2) { p in
        var o = 0
        p[o] = UInt8(ascii: "\""); o += 1
        for c in utf8 {
          if c >= 0x20, c != UInt8(ascii: "\""), c != UInt8(ascii: "\\") {
            p[o] = c; o += 1
            continue
          }
          p[o] = UInt8(ascii: "\\"); o += 1
          switch c {
          case UInt8(ascii: "\""): p[o] = UInt8(ascii: "\""); o += 1
          case UInt8(ascii: "\\"): p[o] = UInt8(ascii: "\\"); o += 1
          case 0x0A: p[o] = UInt8(ascii: "n"); o += 1
          case 0x0D: p[o] = UInt8(ascii: "r"); o += 1
          case 0x09: p[o] = UInt8(ascii: "t"); o += 1
          case 0x08: p[o] = UInt8(ascii: "b"); o += 1
          case 0x0C: p[o] = UInt8(ascii: "f"); o += 1
          default:
            let hex = Self.hexDigits.utf8Start
            p[o] = UInt8(ascii: "u"); p[o + 1] = UInt8(ascii: "0"); p[o + 2] = UInt8(ascii: "0")
            p[o + 3] = hex[Int(c >> 4)]; p[o + 4] = hex[Int(c & 0xF)]
            o += 5
          }
        }
        p[o] = UInt8(ascii: "\""); o += 1
        return o
      }
    }
  }
}
