import EventStore
import JSON
import Lifecycle

/// The bodies of a batch of events, decoded in order, and the bodies already decoded, by their
/// events' `layoutID`: a log repeats the same few events (a callback of one target, a
/// transition between two states) thousands of times apart from their `seq` and `t`, and
/// decoding one again costs several times as much as finding it. Events with the same id have
/// the same bytes from their kind on, and decoding reads nothing else but `t`, so a body found
/// here is the one decoding would make.
///
/// Each body kept by id is in a `BodyBox`, and a batch's events refer to boxes, lent by
/// `lent(at:)` without a count: the memo keeps each box it holds alive, and the batch keeps
/// alive the boxes it refers to that the memo put out of their slots. A body read through a
/// box's `let` is lent as it is; one read through a pointer is copied for each call it is
/// handed to. (Copying each body out into an event and storing it, on the thread that decodes
/// it, and again on the thread that folds it, was about a tenth of `replay --state`'s
/// samples.) An event without an id (its text is not kept, or the stream's ids ran out) is
/// decoded into the batch's own storage instead, and lent by pointer, copied for each call: a
/// box each made a log whose ids ran out 1.13× slower.
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

  /// Each slot's id, 0 for a free slot (no id is 0), and its box (left uninitialized while the
  /// slot is free: a fold makes 16 memos, and initializing every slot touched fresh pages):
  /// raw storage, so that a lookup checks neither bounds nor exclusive access.
  private let ids: UnsafeMutablePointer<UInt64>
  private let boxes: UnsafeMutablePointer<BodyBox>
  /// The stream bits of the ids met so far.
  private var stream: UInt64?
  /// Bodies found here rather than decoded (the tests read it).
  private(set) var found = 0
  /// The batch's events: each its body's box, uncounted, or (nil) its place in `alone`.
  private var batch: [(box: Unmanaged<BodyBox>?, alone: Int32)] = []
  /// The boxes the batch refers to that no slot holds.
  private var batchOwn: [BodyBox] = []
  /// The bodies of the batch's events without an id, in raw storage.
  private var alone = RawList<EventBody>(capacity: 16)

  /// A memo of `slots` bodies (the tests make small ones, to see bodies put out of their slots).
  public init(slots: Int = EventBodyMemo.slotsDefault) {
    // The home slot takes 10 bits of the id's hash, so no more slots than the default.
    precondition(slots >= Self.probesMax && slots <= Self.slotsDefault && slots & (slots - 1) == 0,
                 "EventBodyMemo's slots: a power of two from probesMax to slotsDefault")
    self.slots = slots
    ids = .allocate(capacity: slots)
    boxes = .allocate(capacity: slots)
    ids.initialize(repeating: 0, count: slots)
  }

  deinit {
    forgetAll()
    alone.deallocate()
    ids.deallocate()
    boxes.deallocate()
  }

  /// Bodies decoded since `begin`.
  public var count: Int { batch.count }

  /// Starts a new batch, of about `expected` events: the boxes of the last are no longer lent.
  public func begin(expected: Int = 0) {
    batch.removeAll(keepingCapacity: true)
    batch.reserveCapacity(expected)
    batchOwn.removeAll(keepingCapacity: true)
    alone.removeAll()
  }

  /// How the batch's event `i` lends its body, until the next `begin`.
  public enum LentBody {
    /// In a box, uncounted: read it with `_withUnsafeGuaranteedRef`, and its `let` is lent as it is.
    case boxed(Unmanaged<BodyBox>)
    /// Decoded for this event alone.
    case alone(UnsafePointer<EventBody>)
  }

  /// The body of the batch's event `i`.
  public func lent(at i: Int) -> LentBody {
    let (box, index) = batch[i]
    if let box { return .boxed(box) }
    return .alone(UnsafePointer(alone.base + Int(index)))
  }

  /// Decodes `e` as the batch's next event, its body found here when an event with its
  /// `layoutID` was decoded before.
  public func decode(_ e: InPlaceEvent) throws(Event.DecodingError) {
    guard let id = e.layoutID else { return appendAlone(try Event(e).body) }
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
        return batch.append((Unmanaged.passUnretained(boxes[slot]), 0))
      }
      // Slots are only freed all together, so a body kept later than a free slot is not past it.
      if kept == 0 {
        free = slot
        break
      }
    }
    let box = BodyBox(try Event(e).body)
    let slot = free ?? home
    if free == nil {
      assert(ids[home] != 0, "a free slot passed over")
      batchOwn.append((boxes + home).move())
    }
    (boxes + slot).initialize(to: box)
    ids[slot] = id
    batch.append((Unmanaged.passUnretained(box), 0))
  }

  private func appendAlone(_ body: consuming EventBody) {
    precondition(alone.count < Int32.max, "a batch of more than Int32.max events")
    batch.append((nil, Int32(truncatingIfNeeded: alone.count)))
    alone.append(body)
  }

  /// Frees every slot; the batch keeps the boxes it refers to alive.
  private func forgetAll() {
    for slot in 0..<slots where ids[slot] != 0 {
      batchOwn.append((boxes + slot).move())
      ids[slot] = 0
    }
  }
}

/// A decoded event body, kept by `EventBodyMemo` and lent through its `let`.
public final class BodyBox: Sendable {
  public let body: EventBody

  init(_ body: consuming EventBody) { self.body = body }
}
