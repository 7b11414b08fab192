/// Growing raw storage by doubling: the writer's and the verifier's byte buffers, the fold's
/// members, and each `RawList` (a chunk's event spans, the bodies decoded for one event alone).
package enum RawStorage {
  /// A new allocation of at least `needed` elements (doubling `capacity` until it fits) holding
  /// the first `count` elements of `base`, moved there; `base` is freed. And its capacity.
  package static func grown<Element>(_ base: UnsafeMutablePointer<Element>, keeping count: Int, capacity: Int,
                                     needed: Int) -> (storage: UnsafeMutablePointer<Element>, capacity: Int) {
    var bigger = capacity * 2
    while bigger < needed { bigger *= 2 }
    let moved = UnsafeMutablePointer<Element>.allocate(capacity: bigger)
    moved.moveInitialize(from: base, count: count)
    base.deallocate()
    return (moved, bigger)
  }
}

/// Elements in raw storage that grows by doubling (`RawStorage.grown`), with no bounds or
/// exclusivity checks: a plain value over a pointer, so a hot loop can take it from a class's
/// property as a local and put it back (the property costs a check on every access). Its owner
/// frees it (`deallocate`). A copy taken out must be put back before the owner uses it again:
/// growing frees the storage the owner still points to.
public struct RawList<Element> {
  // Public and inlinable, as `CanonicalJSONWriter` is: called across modules for each line or
  // event, `append` was called unspecialized, through metadata, while the type was `package`
  // (even marked inlinable), 2.4 % of `diff`'s samples.
  @usableFromInline var storage: UnsafeMutablePointer<Element>
  @usableFromInline var initialized = 0
  @usableFromInline var capacity: Int

  /// The elements, `count` of them initialized.
  @inlinable public var base: UnsafeMutablePointer<Element> { storage }
  @inlinable public var count: Int { initialized }

  /// Room for `capacity` elements (at least one) before the first growth.
  public init(capacity: Int) {
    precondition(capacity > 0, "room for one element at least")
    self.capacity = capacity
    storage = .allocate(capacity: capacity)
  }

  @inlinable
  public mutating func append(_ element: Element) {
    if initialized == capacity { grow() }
    (storage + initialized).initialize(to: element)
    initialized += 1
  }

  /// Twice the room (out of line: rare, and `RawStorage` is the package's own).
  @usableFromInline @inline(never)
  mutating func grow() {
    (storage, capacity) = RawStorage.grown(storage, keeping: initialized, capacity: capacity, needed: initialized + 1)
  }

  /// Destroys the elements, the room kept.
  @inlinable
  public mutating func removeAll() {
    storage.deinitialize(count: initialized)
    initialized = 0
  }

  /// Destroys the elements and frees the storage: the last use of this list and its copies.
  public func deallocate() {
    storage.deinitialize(count: initialized)
    storage.deallocate()
  }
}
