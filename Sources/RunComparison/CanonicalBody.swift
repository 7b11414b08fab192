
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

  /// `QuickHash.ofEvery(bytes, seed:)` as an `Int`, the key of the diff's indexes and caches
  /// (equal hashes are then compared byte by byte, so a collision only costs a comparison).
  public static func hash(_ bytes: UnsafeRawBufferPointer, seed: Int = 0) -> Int {
    Int(truncatingIfNeeded: QuickHash.ofEvery(bytes, seed: UInt64(bitPattern: Int64(seed))))
  }

  private static let atMarker = Array(",\"at\":\"".utf8)

  /// Whether the first `count` bytes of `a` and `b` are equal (false if either is shorter).
  public static func samePrefix(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, count: Int) -> Bool {
    guard count > 0 else { return true }
    guard a.count >= count, b.count >= count, let x = a.baseAddress, let y = b.baseAddress else { return false }
    return memcmp(x, y, count) == 0
  }
}

/// The last `size` bodies seen, in one reused buffer: while runs agree nothing is allocated per event.
public struct RecentBodies {
  /// Slot k holds `lengths[k]` bytes from `k * slotBytes`.
  private var bytes: [UInt8] = []
  private var lengths: [Int]
  private var slotBytes = 0
  private var next = 0
  private var filled = 0

  public init(size: Int) { lengths = Array(repeating: 0, count: size) }

  /// Keeps a copy of `body` (adding its closing brace when asked), dropping the oldest.
  public mutating func push(_ body: UnsafeRawBufferPointer, closingBrace: Bool) {
    guard !lengths.isEmpty else { return }
    let count = body.count + (closingBrace ? 1 : 0)
    if count > slotBytes { widen(to: count) }
    let start = next * slotBytes
    bytes.withUnsafeMutableBytes { slots in
      if let from = body.baseAddress, let to = slots.baseAddress, !body.isEmpty { (to + start).copyMemory(from: from, byteCount: body.count) }
      if closingBrace { slots[start + body.count] = UInt8(ascii: "}") }
    }
    lengths[next] = count
    next = (next + 1) % lengths.count
    filled = min(filled + 1, lengths.count)
  }

  /// Makes every slot hold at least `count` bytes, keeping what they hold.
  private mutating func widen(to count: Int) {
    let wider = max(count, slotBytes * 2, 256)
    var grown = [UInt8](repeating: 0, count: wider * lengths.count)
    for k in lengths.indices where lengths[k] > 0 {
      grown[(k * wider)..<(k * wider + lengths[k])] = bytes[(k * slotBytes)..<(k * slotBytes + lengths[k])]
    }
    bytes = grown
    slotBytes = wider
  }

  /// The bodies kept, oldest first; empties the ring.
  public mutating func drain() -> [[UInt8]] {
    var bodies: [[UInt8]] = []
    drain { bodies.append($0) }
    return bodies
  }

  /// Hands each body kept to `body`, oldest first, as a copy of its own; empties the ring.
  public mutating func drain(_ body: ([UInt8]) -> Void) {
    let first = (next - filled + lengths.count) % max(lengths.count, 1)
    for i in 0..<filled {
      let k = (first + i) % lengths.count
      body(Array(bytes[(k * slotBytes)..<(k * slotBytes + lengths[k])]))
    }
    filled = 0
  }
}
