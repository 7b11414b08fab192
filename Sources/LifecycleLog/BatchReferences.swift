import Lifecycle

/// Where the body of each event of `EventBodyMemo`'s batch lies: in one of the memo's slots,
/// or among the batch's own bodies. A slot's body put out while the batch refers to it is
/// moved to the batch's own, and every event of the batch that referred to the slot is
/// pointed there: each slot knows the batch's last event that refers to it, and each such
/// event the one before.
///
/// Limits: a batch of at most `Int32.max` events (a part of a chunk holds far fewer); storage
/// grows by doubling and is kept from batch to batch. Used by one thread at a time.
struct BatchReferences {
  /// Each event's body: a slot (≥ 0), or own body `~k` (< 0).
  private var targets: UnsafeMutablePointer<Int32>
  /// For an event whose body is a slot's, the batch's event before it with that slot (−1: none).
  private var previousSameSlot: UnsafeMutablePointer<Int32>
  private var capacity = 64
  private(set) var count = 0
  /// For each slot, the batch's last event whose body is that slot's, valid when the slot's
  /// `referenceBatch` is `batchNumber` (so a new batch need not clear them).
  private let lastReference: UnsafeMutablePointer<Int32>
  private let referenceBatch: UnsafeMutablePointer<UInt32>
  private var batchNumber: UInt32 = 1
  private let slots: Int
  /// The batch's own bodies, in raw storage.
  private var own: UnsafeMutablePointer<EventBody>
  private var ownCapacity = 16
  private var ownCount = 0

  init(slots: Int) {
    self.slots = slots
    targets = .allocate(capacity: capacity)
    previousSameSlot = .allocate(capacity: capacity)
    lastReference = .allocate(capacity: slots)
    referenceBatch = .allocate(capacity: slots)
    referenceBatch.initialize(repeating: 0, count: slots)
    lastReference.initialize(repeating: -1, count: slots)
    own = .allocate(capacity: ownCapacity)
  }

  /// Frees the storage; the owner calls it once, from its deinit, after `clear`.
  func deallocate() {
    assert(ownCount == 0, "own bodies left to destroy")
    targets.deallocate()
    previousSameSlot.deallocate()
    lastReference.deallocate()
    referenceBatch.deallocate()
    own.deallocate()
  }

  /// The body of event `i`, whose slots' bodies are `kept`.
  func body(at i: Int, kept: UnsafeMutablePointer<EventBody>) -> UnsafePointer<EventBody> {
    let target = Int(targets[i])
    return UnsafePointer(target >= 0 ? kept + target : own + ~target)
  }

  /// No events, and no own bodies.
  mutating func clear() {
    own.deinitialize(count: ownCount)
    ownCount = 0
    count = 0
    if batchNumber == .max {
      referenceBatch.update(repeating: 0, count: slots)
      batchNumber = 0
    }
    batchNumber += 1
  }

  /// The next event's body is `slot`'s.
  mutating func append(slot: Int) {
    reserveOne()
    let earlier = referenceBatch[slot] == batchNumber ? lastReference[slot] : -1
    targets[count] = Int32(truncatingIfNeeded: slot)
    previousSameSlot[count] = earlier
    lastReference[slot] = Int32(truncatingIfNeeded: count)
    referenceBatch[slot] = batchNumber
    count += 1
  }

  /// The next event's body is `body`, the batch's own.
  mutating func append(own body: consuming EventBody) {
    reserveOne()
    targets[count] = ~appendOwn(body)
    previousSameSlot[count] = -1
    count += 1
  }

  /// Takes `slot`'s body out of `kept` (leaving it uninitialized): moved to the batch's own if
  /// an event of the batch refers to it, every such event pointed there; else destroyed.
  mutating func moveOut(slot: Int, kept: UnsafeMutablePointer<EventBody>) {
    guard referenceBatch[slot] == batchNumber else {
      (kept + slot).deinitialize(count: 1)
      return
    }
    let moved = ~appendOwn((kept + slot).move())
    var event = Int(lastReference[slot])
    while event >= 0 {
      targets[event] = moved
      event = Int(previousSameSlot[event])
    }
    referenceBatch[slot] = 0
  }

  private mutating func appendOwn(_ body: consuming EventBody) -> Int32 {
    if ownCount == ownCapacity {
      let bigger = UnsafeMutablePointer<EventBody>.allocate(capacity: ownCapacity * 2)
      bigger.moveInitialize(from: own, count: ownCount)
      own.deallocate()
      (own, ownCapacity) = (bigger, ownCapacity * 2)
    }
    (own + ownCount).initialize(to: body)
    ownCount += 1
    return Int32(truncatingIfNeeded: ownCount - 1)
  }

  private mutating func reserveOne() {
    precondition(count < Int32.max, "a batch of more than Int32.max events")
    guard count == capacity else { return }
    let bigger = capacity * 2
    let moreTargets = UnsafeMutablePointer<Int32>.allocate(capacity: bigger)
    let morePrevious = UnsafeMutablePointer<Int32>.allocate(capacity: bigger)
    moreTargets.moveInitialize(from: targets, count: count)
    morePrevious.moveInitialize(from: previousSameSlot, count: count)
    targets.deallocate()
    previousSameSlot.deallocate()
    (targets, previousSameSlot, capacity) = (moreTargets, morePrevious, bigger)
  }
}
