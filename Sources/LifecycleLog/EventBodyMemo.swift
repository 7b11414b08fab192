import EventStore
import Lifecycle

/// The bodies of a batch of events, decoded in order, and the bodies already decoded, by their
/// events' `layoutID`: a log repeats the same few events (a callback of one target, a
/// transition between two states) thousands of times apart from their `seq` and `t`, and
/// decoding one again costs several times as much as finding it. Events with the same id have
/// the same bytes from their kind on, and decoding reads nothing else but `t`, so a body found
/// here is the one decoding would make.
///
/// A batch's events are not copies: each refers to a kept body, or to one of the batch's own
/// (an event without an id, or a kept body put out of its slot while the batch refers to it),
/// and `body(at:)` lends it. (Copying each body out into an event and storing it, on the
/// thread that decodes it, was about 7 % of `replay --state`'s samples.)
///
/// Ids are a stream's own (its number is in bits 8–31 of each): an event of another stream
/// empties the memo first. Limits: `slots` bodies; a body is kept in the first free slot of
/// `probesMax` from its id's, else in place of the one in its id's slot. Used by one thread
/// at a time, and a batch's bodies lent until the next `begin`.
public final class EventBodyMemo: @unchecked Sendable {
  // @unchecked: used by one thread at a time (each part a log is decoded in has its own).
  /// Slots a memo keeps unless told otherwise.
  public static let slotsDefault = 1_024
  /// Slots a body may take, from its id's on.
  static let probesMax = 4
  /// Slots kept (a power of two, from `probesMax` to `slotsDefault`).
  let slots: Int

  /// Each slot's id, 0 for a free slot (no id is 0), and its body (left uninitialized while the
  /// slot is free: a fold makes 16 memos, and initializing every slot touched 400 fresh pages):
  /// raw storage, so that a lookup checks neither bounds nor exclusive access.
  private let ids: UnsafeMutablePointer<UInt64>
  private let bodies: UnsafeMutablePointer<EventBody>
  /// The stream bits of the ids met so far.
  private var stream: UInt64?
  /// Bodies found here rather than decoded (the tests read it).
  private(set) var found = 0
  /// The batch's references, in order (`BatchReferences`).
  private var batch: BatchReferences

  /// A memo of `slots` bodies (the tests make small ones, to see bodies put out of their slots).
  public init(slots: Int = EventBodyMemo.slotsDefault) {
    // The home slot takes 10 bits of the id's hash, so no more slots than the default.
    precondition(slots >= Self.probesMax && slots <= Self.slotsDefault && slots & (slots - 1) == 0,
                 "EventBodyMemo's slots: a power of two from probesMax to slotsDefault")
    self.slots = slots
    ids = .allocate(capacity: slots)
    bodies = .allocate(capacity: slots)
    ids.initialize(repeating: 0, count: slots)
    batch = BatchReferences(slots: slots)
  }

  deinit {
    batch.clear()
    forgetAll()
    batch.deallocate()
    ids.deallocate()
    bodies.deallocate()
  }

  /// Bodies decoded since `begin`.
  public var count: Int { batch.count }

  /// Starts a new batch: the bodies of the last are no longer lent.
  public func begin() { batch.clear() }

  /// The body of the batch's event `i`, lent until the next `begin`.
  public func body(at i: Int) -> UnsafePointer<EventBody> {
    precondition(i >= 0 && i < batch.count, "a body beyond the batch")
    return batch.body(at: i, kept: bodies)
  }

  /// Decodes `e` as the batch's next event, its body found here when an event with its
  /// `layoutID` was decoded before.
  public func decode(_ e: InPlaceEvent) throws(Event.DecodingError) {
    guard let id = e.layoutID else { return batch.append(own: try Event(e).body) }
    assert(id != 0, "a layout id of 0")
    let idStream = id >> 8 & 0xFF_FFFF
    if stream != idStream {
      if stream != nil { forgetAll() }
      stream = idStream
    }
    // The id's low bits tell streams apart; its high bits count within one stream.
    let home = Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) >> 54) & (slots - 1)
    var free: Int?
    for probe in 0..<Self.probesMax {
      let slot = (home &+ probe) & (slots - 1), kept = ids[slot]
      if kept == id {
        found &+= 1
        return batch.append(slot: slot)
      }
      // Slots are only freed all together, so a body kept later than a free slot is not past it.
      if kept == 0 {
        free = slot
        break
      }
    }
    let body = try Event(e).body
    let slot = free ?? home
    if free == nil {
      assert(ids[home] != 0, "a free slot passed over")
      batch.moveOut(slot: home, kept: bodies)
    }
    (bodies + slot).initialize(to: body)
    ids[slot] = id
    batch.append(slot: slot)
  }

  /// Frees every slot, destroying the bodies kept (a body the batch refers to is moved to it).
  private func forgetAll() {
    for slot in 0..<slots where ids[slot] != 0 {
      batch.moveOut(slot: slot, kept: bodies)
      ids[slot] = 0
    }
  }
}
