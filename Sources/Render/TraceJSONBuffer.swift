import JSON

/// The bytes of a chrome trace on their way out: trace events written from their constant
/// parts (each a static string copied whole: `{"ph":"i","s":"t","pid":` and the like), numbers
/// by a two-digits-at-a-time routine and strings copied as they are unless a scan finds a byte
/// to escape (those few go through `CanonicalJSONWriter`). The output is exactly
/// `CanonicalJSONWriter`'s for the same members (ChromeTraceBytesTests compares the trace's
/// strings and numbers with the log's); the writer's per-byte bookkeeping (depth, a comma flag
/// per level) is left out, since a trace event is always one object with one `args` object inside.
///
/// Holds two buffers: while one is being written out by `TraceChunkWriter` on another thread,
/// events go into the other (`swapBuffers`).
package struct TraceJSONBuffer: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private var spare: UnsafeMutablePointer<UInt8>
  private var spareCapacity: Int
  /// The number of bytes written.
  private(set) var count = 0
  /// The next member of the open `args` object is its first (no comma before it).
  private var firstMember = true

  package init(capacity: Int) {
    self.capacity = capacity
    spareCapacity = capacity
    base = .allocate(capacity: capacity)
    spare = .allocate(capacity: capacity)
  }

  deinit {
    base.deallocate()
    spare.deallocate()
  }

  /// Hands out what was written and continues, empty, in the other buffer: the bytes handed
  /// out stay valid until the next `swapBuffers`.
  package mutating func swapBuffers() -> UnsafeRawBufferPointer {
    let written = UnsafeRawBufferPointer(start: base, count: count)
    swap(&base, &spare)
    swap(&capacity, &spareCapacity)
    count = 0
    return written
  }

  /// Takes back everything written after the first `count` bytes.
  package mutating func truncate(to count: Int) {
    precondition(count <= self.count, "truncate past the end")
    self.count = count
  }

  /// A copy of the bytes from `start` to the end.
  package func copy(from start: Int) -> [UInt8] { Array(UnsafeBufferPointer(start: base + start, count: count - start)) }

  // MARK: Constant parts

  /// Reserves room for `n` more bytes.
  @inline(__always)
  private mutating func reserve(_ n: Int) {
    if count + n > capacity { grow(to: count + n) }
  }

  @inline(never)
  private mutating func grow(to needed: Int) {
    var bigger = capacity * 2
    while bigger < needed { bigger *= 2 }
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
    moved.update(from: base, count: count)
    base.deallocate()
    base = moved
    capacity = bigger
  }

  /// Appends bytes that are already canonical JSON (a template, or members kept for later).
  @inline(__always)
  package mutating func raw(_ text: UnsafeRawBufferPointer) {
    guard let source = text.baseAddress else { return }
    reserve(text.count)
    (base + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: text.count)
    count += text.count
  }

  package mutating func raw(_ text: [UInt8]) { text.withUnsafeBytes { raw($0) } }

  /// Appends a constant part (ASCII, needing no escape).
  @inline(__always)
  package mutating func raw(_ text: StaticString) {
    let n = text.utf8CodeUnitCount
    reserve(n)
    Self.copy(text.utf8Start, n, to: base + count)
    count += n
  }

  /// Copies the few bytes of a constant part: a loop costs less than a call to memmove.
  @inline(__always)
  private static func copy(_ source: UnsafePointer<UInt8>, _ n: Int, to target: UnsafeMutablePointer<UInt8>) {
    var i = 0
    while i < n {
      target[i] = source[i]
      i &+= 1
    }
  }

  @inline(__always)
  package mutating func byte(_ b: UInt8) {
    reserve(1)
    base[count] = b
    count += 1
  }

  // MARK: Members of args

  /// Opens an `args` object: `{`, its first member next.
  package mutating func openArgs() {
    byte(UInt8(ascii: "{"))
    firstMember = true
  }

  /// Starts an `args` object whose members are written, and taken back (`copy`), to be put
  /// in a trace event later with `members`.
  package mutating func beginMembers() { firstMember = true }

  /// Members kept from `beginMembers` (never empty): the next member follows them with a comma.
  package mutating func members(_ kept: [UInt8]) {
    if !firstMember { byte(UInt8(ascii: ",")) }
    raw(kept)
    firstMember = false
  }

  /// `"key":` of the next member of the open `args`, after a comma unless it is the first.
  @inline(__always)
  package mutating func key(_ key: StaticString) {
    let n = key.utf8CodeUnitCount
    reserve(n + 4)
    var p = base + count
    if !firstMember { p[0] = UInt8(ascii: ","); p += 1 }
    firstMember = false
    p[0] = UInt8(ascii: "\"")
    Self.copy(key.utf8Start, n, to: p + 1)
    p[n + 1] = UInt8(ascii: "\"")
    p[n + 2] = UInt8(ascii: ":")
    count = p + n + 3 - base
  }

  package mutating func field(_ k: StaticString, _ value: Int64) { key(k); int(value) }
  package mutating func field(_ k: StaticString, _ value: Int) { key(k); int(Int64(value)) }
  package mutating func field(_ k: StaticString, _ value: String) { key(k); string(value) }
  package mutating func field(_ k: StaticString, _ value: Bool) { key(k); raw(value ? "true" : "false") }
  package mutating func field(_ k: StaticString, _ value: JSONValue) { key(k); json(value) }

  // MARK: Values

  /// Any JSON value (a callback's payload, a return value), as `CanonicalJSONWriter` writes it.
  package mutating func json(_ value: JSONValue) {
    var w = CanonicalJSONWriter()
    w.value(value)
    w.withBytes { raw($0) }
  }

  /// A number of seconds as `CanonicalJSONWriter.double` writes it.
  package mutating func double(_ value: Double) {
    var w = CanonicalJSONWriter()
    w.double(value)
    w.withBytes { raw($0) }
  }

  /// "00" to "99", for writing two digits at a time.
  private static let digitPairs: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

  /// A decimal integer, as `CanonicalJSONWriter.int`.
  @inline(__always)
  package mutating func int(_ value: Int64) {
    reserve(20)
    var v = value.magnitude
    if value < 0 { base[count] = UInt8(ascii: "-"); count += 1 }
    if v < 10 {
      base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
      count += 1
      return
    }
    // An Int64's magnitude has at most 19 digits (10^19 still fits a UInt64).
    var digits = 1
    var bound: UInt64 = 10
    while digits < 19, v >= bound {
      digits += 1
      bound &*= 10
    }
    let end = base + count + digits
    var p = end
    let pairs = Self.digitPairs.utf8Start
    while v >= 100 {
      let pair = Int(truncatingIfNeeded: v % 100) &* 2
      v /= 100
      p -= 2
      p[0] = pairs[pair]
      p[1] = pairs[pair &+ 1]
    }
    if v >= 10 {
      let pair = Int(truncatingIfNeeded: v) &* 2
      p -= 2
      p[0] = pairs[pair]
      p[1] = pairs[pair &+ 1]
    } else {
      p -= 1
      p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
    }
    count = end - base
  }

  /// A JSON string, escaped as `CanonicalJSONWriter.string` escapes it: `"`, `\` and the
  /// control characters only. Checked once; most strings are copied whole.
  package mutating func string(_ s: String) {
    var text = s
    let copied = text.withUTF8 { utf8 -> Bool in
      guard !Self.needsEscape(utf8) else { return false }
      reserve(utf8.count + 2)
      base[count] = UInt8(ascii: "\"")
      if let source = utf8.baseAddress { (base + count + 1).update(from: source, count: utf8.count) }
      base[count + utf8.count + 1] = UInt8(ascii: "\"")
      count += utf8.count + 2
      return true
    }
    if !copied { escaped(s) }
  }

  /// Whether `utf8` has a byte JSON escapes: `"`, `\` or a control character. Eight bytes at
  /// a time, with the usual word tricks: `(x - 0x20…) & ~x & 0x80…` is not 0 when a byte of x
  /// is below 0x20, and x xor-ed with `"` or `\` in every byte has a 0 byte where x has one.
  /// (A false alarm would only take the escaping path, which writes the same bytes.)
  @inline(__always)
  private static func needsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let start = utf8.baseAddress else { return false }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var i = 0
    while i + 8 <= utf8.count {
      let word = UnsafeRawPointer(start + i).loadUnaligned(as: UInt64.self)
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      let control = (word &- ones &* 0x20) & ~word
      let found = control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
      if found & highs != 0 { return true }
      i += 8
    }
    while i < utf8.count {
      let c = start[i]
      if c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { return true }
      i += 1
    }
    return false
  }

  /// A string with bytes to escape (rare): written by `CanonicalJSONWriter` itself.
  private mutating func escaped(_ s: String) {
    var w = CanonicalJSONWriter()
    w.string(s)
    w.withBytes { raw($0) }
  }

}
