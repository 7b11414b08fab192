internal import CSHA256Lanes

/// Checks many hash-chain links at once: each link is `previous ‖ body` (a digest's 64 hex
/// digits, then a line's body), and its SHA-256 should be the 64 hex digits recorded for it.
/// Checking a log, each line links to the digest recorded on the line before it, so every
/// link is known before any is hashed. Where the CPU has the SHA extensions, four links are
/// hashed side by side and compared in C (`lifesim_sha256_links_check`); elsewhere one at a
/// time through libcrypto, and compared in Swift. It also hashes the links of a chain being
/// written, one after the other (`linkHex`). The only file that calls into `CSHA256Lanes`.
enum LinkHasher {
  /// One link: the 64 hex digits it links onto, its body, and the 64 hex digits recorded for it.
  struct Link {
    var previous: UnsafeRawPointer
    var body: UnsafeRawBufferPointer
    var recorded: UnsafeRawPointer
  }

  /// Whether this CPU can hash four links at once. The C function is `lifesim_sha256_lanes_supported`.
  static let lanesSupported = lifesim_sha256_lanes_supported() != 0

  /// Nil when the digest of each of `count` links (`link(i)` is link i) is the one recorded
  /// for it; else a link whose is not (the first found, in an order of its own). `fourAtOnce:
  /// false` hashes one at a time even where four at once is possible (the tests hold the two
  /// to the same answers).
  static func mismatch(count: Int, fourAtOnce: Bool = lanesSupported, link: (Int) -> Link) -> Int? {
    precondition(count >= 0, "a negative number of links")
    guard fourAtOnce else { return (0..<count).first { !matches(link($0)) } }
    return withUnsafeTemporaryAllocation(of: lifesim_sha256_link.self, capacity: count) { links in
      for i in 0..<count {
        let l = link(i)
        // A body is at most `LogLimits.lineBytesMax`: its length in bits is far from overflowing.
        links.initializeElement(at: i, to: lifesim_sha256_link(
          previous: l.previous.assumingMemoryBound(to: UInt8.self), body: l.body.baseAddress?.assumingMemoryBound(to: UInt8.self),
          length: l.body.count, recorded: l.recorded.assumingMemoryBound(to: UInt8.self)))
      }
      let found = lifesim_sha256_links_check(links.baseAddress, count)
      return found == count ? nil : found
    }
  }

  /// Writes the 64 lowercase hex digits of SHA-256(`previous` ‖ `a` ‖ `b`) to `hex`, which may
  /// be where `previous` is (64 hex digits; nil: none, the header's link). One message in one
  /// lane where the CPU has the SHA extensions (`lifesim_sha256_link_hex`), else through
  /// libcrypto: a chain being written hashes each line after the digest of the one before.
  static func linkHex(previous: UnsafeRawPointer?, _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer,
                      into hex: UnsafeMutableRawPointer, oneLane: Bool = lanesSupported) {
    guard oneLane else {
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: LibCrypto.sha256Bytes) { digest in
        LibCrypto.sha256(UnsafeRawBufferPointer(start: previous, count: previous == nil ? 0 : HashChain.hexBytes), a, b,
                         into: digest.baseAddress!)
        HashChain.writeHex(digest.baseAddress!, into: hex)
      }
      return
    }
    lifesim_sha256_link_hex(previous?.assumingMemoryBound(to: UInt8.self), a.baseAddress?.assumingMemoryBound(to: UInt8.self), a.count,
                            b.baseAddress?.assumingMemoryBound(to: UInt8.self), b.count, hex.assumingMemoryBound(to: UInt8.self))
  }

  /// Whether one link's digest, through libcrypto, is the one recorded for it.
  private static func matches(_ link: Link) -> Bool {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: LibCrypto.sha256Bytes) { digest in
      LibCrypto.sha256(UnsafeRawBufferPointer(start: link.previous, count: HashChain.hexBytes), link.body, into: digest.baseAddress!)
      return HashChain.digest(digest.baseAddress!, matches: link.recorded.assumingMemoryBound(to: UInt8.self))
    }
  }
}
