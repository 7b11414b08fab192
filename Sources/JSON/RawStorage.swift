/// Growing raw storage by doubling: the writer's and the verifier's byte buffers, the fold's
/// members and the bodies decoded for one event alone.
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
