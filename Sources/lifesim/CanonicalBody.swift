import EventStore

#if canImport(Glibc)
import Glibc
#endif

/// Reading a log line's canonical body as bytes, for the commands that compare runs.
enum CanonicalBody {
  /// Where `,"at":"file:line"` begins in `body[..<end]` when it is the last member (its value
  /// a plain string running to `end`); nil when there is none. `at` names the script line
  /// that caused an event, which differs between two versions of a script.
  static func sourceStart(_ body: UnsafeRawBufferPointer, end: Int) -> Int? {
    let marker = atMarker
    guard end > marker.count + 1, body[end - 1] == UInt8(ascii: "\"") else { return nil }
    var i = end - 2
    while i >= marker.count - 1 {
      let c = body[i]
      if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") {
        // The value's opening quote, if this is an `at` member; else not one.
        let from = i - (marker.count - 1)
        guard c == UInt8(ascii: "\""), from >= 0, memcmp(body.baseAddress! + from, marker, marker.count) == 0 else { return nil }
        return from
      }
      i -= 1
    }
    return nil
  }

  private static let atMarker = Array(",\"at\":\"".utf8)
}

/// The last `size` bodies seen, in reused buffers: while runs agree nothing is allocated per event.
struct RecentBodies {
  private var slots: [[UInt8]]
  private var next = 0
  private var filled = 0

  init(size: Int) { slots = Array(repeating: [], count: size) }

  /// Keeps a copy of `body` (adding its closing brace when asked), dropping the oldest.
  mutating func push(_ body: UnsafeRawBufferPointer, closingBrace: Bool) {
    guard !slots.isEmpty else { return }
    slots[next].removeAll(keepingCapacity: true)
    slots[next].append(contentsOf: body)
    if closingBrace { slots[next].append(UInt8(ascii: "}")) }
    next = (next + 1) % slots.count
    filled = min(filled + 1, slots.count)
  }

  /// The bodies kept, oldest first; empties the ring.
  mutating func drain() -> [[UInt8]] {
    let first = (next - filled + slots.count) % max(slots.count, 1)
    let bodies = (0..<filled).map { slots[(first + $0) % slots.count] }
    filled = 0
    return bodies
  }
}
