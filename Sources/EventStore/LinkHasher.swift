internal import CSHA256Lanes

/// The SHA-256 of many hash-chain links, each `previous ‖ body` (a digest's 64 hex digits,
/// then a line's body), when every `previous` is already known: checking a log, each line
/// links to the digest recorded on the line before it. Where the CPU has the SHA extensions,
/// four links are hashed side by side (`CSHA256Lanes`); elsewhere one at a time through
/// libcrypto. The only file that calls into `CSHA256Lanes`.
enum LinkHasher {
  /// Whether this CPU can hash four links at once. The C function is `lifesim_sha256_lanes_supported`.
  static let lanesSupported = lifesim_sha256_lanes_supported() != 0

  /// Whether `recorded` (64 hex digits) is `digest` (32 bytes) in lowercase hex: where the CPU
  /// has the SHA extensions (and so SSSE3), 16 digits at a time (`lifesim_sha256_hex_matches`);
  /// elsewhere `HashChain.digest(_:matches:)`. `inC: false` uses the latter everywhere (the
  /// tests hold the two to the same answers).
  static func digest(_ digest: UnsafePointer<UInt8>, matches recorded: UnsafePointer<UInt8>, inC: Bool = lanesSupported) -> Bool {
    inC ? lifesim_sha256_hex_matches(digest, recorded) != 0 : HashChain.digest(digest, matches: recorded)
  }

  /// Hands the digest of each of `count` links (`link(i)` is link i) to `check`, in an order
  /// of its own; false, and no more digests, as soon as `check` answers false.
  /// `fourAtOnce: false` hashes one at a time even where four at once is possible (the tests
  /// hold the two to the same digests).
  static func digests(count: Int, fourAtOnce: Bool = lanesSupported,
                      link: (Int) -> (previous: UnsafeRawPointer, body: UnsafeRawBufferPointer),
                      check: (Int, UnsafePointer<UInt8>) -> Bool) -> Bool {
    precondition(count >= 0, "a negative number of links")
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: LibCrypto.sha256Bytes) { digest in
      let digest = digest.baseAddress!
      guard fourAtOnce else {
        for i in 0..<count {
          let (previous, body) = link(i)
          LibCrypto.sha256(UnsafeRawBufferPointer(start: previous, count: HashChain.hexBytes), body, into: digest)
          if !check(i, digest) { return false }
        }
        return true
      }
      var lanes = FourLanes()
      return lanes.run(count: count, digest: digest, link: link, check: check)
    }
  }
}

/// Four links in flight: each lane hashes its link's blocks (the 64 hex digits, the body's
/// whole blocks in place, then its last bytes padded in the lane's tail) and takes the next
/// link once done; the last link left is finished alone. The C functions are
/// `lifesim_sha256_lanes_reset`, `_block`, `_block_one` and `_digest`.
private struct FourLanes: ~Copyable {
  private struct Lane {
    /// The link being hashed; nil for an idle lane.
    var link: Int?
    var previous: UnsafeRawPointer?
    var body: UnsafeRawPointer?
    /// Blocks hashed so far, and all the link's blocks.
    var done = 0
    var total = 0
    /// The body's whole blocks (after the block of hex digits).
    var wholeBlocks = 0
  }

  private static let blockBytes = 64
  private var state = lifesim_sha256_lanes()
  private let lanes = UnsafeMutablePointer<Lane>.allocate(capacity: 4)
  /// Each lane's padded last one or two blocks; an idle lane hashes its first as filler.
  private let tails = UnsafeMutableRawPointer.allocate(byteCount: 4 * 2 * FourLanes.blockBytes, alignment: 16)
  private let blocks = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: 4)

  init() {
    assert(HashChain.hexBytes == Self.blockBytes, "a link's hex digits are hashed as one block")
    tails.initializeMemory(as: UInt8.self, repeating: 0, count: 4 * 2 * Self.blockBytes)
    lanes.initialize(repeating: Lane(), count: 4)
  }

  deinit {
    tails.deallocate()
    blocks.deallocate()
    lanes.deinitialize(count: 4)
    lanes.deallocate()
  }

  mutating func run(count: Int, digest: UnsafeMutablePointer<UInt8>,
                    link: (Int) -> (previous: UnsafeRawPointer, body: UnsafeRawBufferPointer),
                    check: (Int, UnsafePointer<UInt8>) -> Bool) -> Bool {
    var next = 0, busy = 0
    while true {
      for l in 0..<4 where lanes[l].link == nil && next < count {
        start(lane: l, link: next, link(next))
        next += 1
        busy += 1
      }
      guard busy > 0 else { return true }
      if busy == 1, next == count, let last = (0..<4).first(where: { lanes[$0].link != nil }) {
        // The last link alone (a long line would have the idle lanes hash filler for its length).
        lifesim_sha256_lanes_block_one(&state, Int32(last), block(lane: last))
      } else {
        for l in 0..<4 { blocks[l] = block(lane: l) }
        lifesim_sha256_lanes_block(&state, blocks)
      }
      for l in 0..<4 {
        guard let i = lanes[l].link else { continue }
        lanes[l].done += 1
        guard lanes[l].done == lanes[l].total else { continue }
        lifesim_sha256_lanes_digest(&state, Int32(l), digest)
        lanes[l].link = nil
        busy -= 1
        if !check(i, digest) { return false }
      }
    }
  }

  /// Lane `l` takes link `i`: its state starts over and its tail is padded (FIPS 180-4 §5.1.1:
  /// a 1 bit, zeros, and the message's length in bits in the last 8 bytes).
  private mutating func start(lane l: Int, link i: Int, _ link: (previous: UnsafeRawPointer, body: UnsafeRawBufferPointer)) {
    let n = link.body.count, whole = n / Self.blockBytes, rest = n % Self.blockBytes
    let tailBlocks = rest + 9 <= Self.blockBytes ? 1 : 2
    let tail = tails + l * 2 * Self.blockBytes
    tail.initializeMemory(as: UInt8.self, repeating: 0, count: tailBlocks * Self.blockBytes)
    if rest > 0 { tail.copyMemory(from: link.body.baseAddress! + whole * Self.blockBytes, byteCount: rest) }
    tail.storeBytes(of: 0x80, toByteOffset: rest, as: UInt8.self)
    // A body is at most `LogLimits.lineBytesMax`: its length in bits is far from overflowing.
    let bits = UInt64(HashChain.hexBytes + n) * 8
    tail.storeBytes(of: bits.bigEndian, toByteOffset: tailBlocks * Self.blockBytes - 8, as: UInt64.self)
    lifesim_sha256_lanes_reset(&state, Int32(l))
    lanes[l] = Lane(link: i, previous: link.previous, body: link.body.baseAddress, done: 0,
                    total: 1 + whole + tailBlocks, wholeBlocks: whole)
  }

  /// The block lane `l` hashes next.
  private func block(lane l: Int) -> UnsafePointer<UInt8> {
    let lane = lanes[l], tail = tails + l * 2 * Self.blockBytes
    let bytes: UnsafeRawPointer
    if lane.link == nil {
      bytes = UnsafeRawPointer(tail)
    } else if lane.done == 0 {
      bytes = lane.previous!
    } else if lane.done <= lane.wholeBlocks {
      bytes = lane.body! + (lane.done - 1) * Self.blockBytes
    } else {
      bytes = UnsafeRawPointer(tail + (lane.done - 1 - lane.wholeBlocks) * Self.blockBytes)
    }
    return bytes.assumingMemoryBound(to: UInt8.self)
  }
}
