import EventStore
import Lifecycle

/// Event bodies already decoded, by their events' `layoutID`: a log repeats the same few
/// events (a callback of one target, a transition between two states) thousands of times
/// apart from their `seq` and `t`, and decoding one again costs several times as much as
/// finding it. Events with the same id have the same bytes from their kind on, and decoding
/// reads nothing else but `t`, so a body found here is the one decoding would make.
///
/// Ids are a stream's own (its number is in bits 8–31 of each): an event of another stream
/// empties the memo first. Limits: `slots` bodies; a body is kept in the first free slot of
/// `probesMax` from its id's, else in place of the one in its id's slot. Used by one thread
/// at a time.
public final class EventBodyMemo: @unchecked Sendable {
  // @unchecked: used by one thread at a time (each part a log is decoded in has its own).
  static let slots = 1_024
  /// Slots a body may take, from its id's on.
  static let probesMax = 4

  /// Each slot's id, 0 for a free slot (no id is 0), and its body (left uninitialized while the
  /// slot is free: a fold makes 16 memos, and initializing every slot touched 400 fresh pages):
  /// raw storage, so that a lookup checks neither bounds nor exclusive access.
  private let ids = UnsafeMutablePointer<UInt64>.allocate(capacity: EventBodyMemo.slots)
  private let bodies = UnsafeMutablePointer<EventBody>.allocate(capacity: EventBodyMemo.slots)
  /// The stream bits of the ids met so far.
  private var stream: UInt64?
  /// Bodies found here rather than decoded (the tests read it).
  private(set) var found = 0

  public init() {
    ids.initialize(repeating: 0, count: Self.slots)
  }

  deinit {
    forgetAll()
    ids.deallocate()
    bodies.deallocate()
  }

  /// `e` decoded, its body found here when an event with its `layoutID` was decoded before.
  public func event(_ e: InPlaceEvent) throws(Event.DecodingError) -> Event {
    guard let id = e.layoutID else { return try Event(e) }
    assert(id != 0, "a layout id of 0")
    let idStream = id >> 8 & 0xFF_FFFF
    if stream != idStream {
      if stream != nil { forgetAll() }
      stream = idStream
    }
    // The id's low bits tell streams apart; its high bits count within one stream.
    let home = Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) >> 54) & (Self.slots - 1)
    var free: Int?
    for probe in 0..<Self.probesMax {
      let slot = (home &+ probe) & (Self.slots - 1), kept = ids[slot]
      if kept == id {
        found &+= 1
        return Event(t: e.t, bodies[slot])
      }
      // Slots are only freed all together, so a body kept later than a free slot is not past it.
      if kept == 0 {
        free = slot
        break
      }
    }
    let event = try Event(e)
    if let free {
      (bodies + free).initialize(to: event.body)
      ids[free] = id
    } else {
      assert(ids[home] != 0, "a free slot passed over")
      bodies[home] = event.body
      ids[home] = id
    }
    return event
  }

  /// Frees every slot, destroying the bodies kept.
  private func forgetAll() {
    for slot in 0..<Self.slots where ids[slot] != 0 {
      (bodies + slot).deinitialize(count: 1)
      ids[slot] = 0
    }
  }
}
