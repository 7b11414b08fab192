/// Growing a byte buffer, for the writer's and the verifier's buffers alike.
package enum ByteStorage {
  /// A new allocation of at least `needed` bytes (doubling `capacity` until it fits) holding
  /// the first `count` bytes of `base`, which is freed; and its capacity.
  package static func grown(_ base: UnsafeMutablePointer<UInt8>, keeping count: Int, capacity: Int,
                    needed: Int) -> (bytes: UnsafeMutablePointer<UInt8>, capacity: Int) {
    var bigger = capacity * 2
    while bigger < needed { bigger *= 2 }
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
    moved.update(from: base, count: count)
    base.deallocate()
    return (moved, bigger)
  }
}
