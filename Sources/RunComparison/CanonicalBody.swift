import EventStore

#if canImport(Glibc)
import Glibc
#endif

/// Reading a log line's canonical body as bytes, for the commands that compare runs.
public enum CanonicalBody {
  /// Where `,"at":"file:line"` begins in `body[..<end]` when it is the last member (its value
  /// a plain string running to `end`); nil when there is none. `at` names the script line
  /// that caused an event, which differs between two versions of a script.
  public static func sourceStart(_ body: UnsafeRawBufferPointer, end: Int) -> Int? {
    let marker = atMarker
    guard end > marker.count + 1, end <= body.count, let base = body.baseAddress, body[end - 1] == UInt8(ascii: "\"") else { return nil }
    var i = end - 2
    while i >= marker.count - 1 {
      let c = body[i]
      if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") {
        // The value's opening quote, if this is an `at` member; else not one.
        let from = i - (marker.count - 1)
        guard c == UInt8(ascii: "\""), from >= 0, memcmp(base + from, marker, marker.count) == 0 else { return nil }
        return from
      }
      i -= 1
    }
    return nil
  }

  /// A hash of `bytes` (after `seed`), eight bytes at a time, the same on every run: for
  /// indexing events by their bytes (equal hashes are then compared byte by byte, so a
  /// collision only costs a comparison).
  public static func hash(_ bytes: UnsafeRawBufferPointer, seed: Int = 0) -> Int {
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count) ^ UInt64(bitPattern: Int64(seed))
    var i = 0
    while i + 8 <= bytes.count {
      h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
      h ^= h >> 29
      i += 8
    }
    var tail: UInt64 = 0
    while i < bytes.count {
      tail = tail << 8 | UInt64(bytes[i])
      i += 1
    }
    h = (h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
    return Int(bitPattern: UInt(truncatingIfNeeded: h ^ h >> 32))
  }

  private static let atMarker = Array(",\"at\":\"".utf8)

  /// Whether the first `count` bytes of `a` and `b` are equal (false if either is shorter).
  public static func samePrefix(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, count: Int) -> Bool {
    guard count > 0 else { return true }
    guard a.count >= count, b.count >= count, let x = a.baseAddress, let y = b.baseAddress else { return false }
    return memcmp(x, y, count) == 0
  }
}

/// The last `size` bodies seen, in reused buffers: while runs agree nothing is allocated per event.
public struct RecentBodies {
  private var slots: [[UInt8]]
  private var next = 0
  private var filled = 0

  public init(size: Int) { slots = Array(repeating: [], count: size) }

  /// Keeps a copy of `body` (adding its closing brace when asked), dropping the oldest.
  public mutating func push(_ body: UnsafeRawBufferPointer, closingBrace: Bool) {
    guard !slots.isEmpty else { return }
    slots[next].removeAll(keepingCapacity: true)
    slots[next].append(contentsOf: body)
    if closingBrace { slots[next].append(UInt8(ascii: "}")) }
    next = (next + 1) % slots.count
    filled = min(filled + 1, slots.count)
  }

  /// The bodies kept, oldest first; empties the ring.
  public mutating func drain() -> [[UInt8]] {
    let first = (next - filled + slots.count) % max(slots.count, 1)
    let bodies = (0..<filled).map { slots[(first + $0) % slots.count] }
    filled = 0
    return bodies
  }
}
