/// The `h` chain of docs/log-format.md: `h(n) = hex(SHA-256(h(n-1) as ASCII ‖ BODY(n)))`,
/// with an empty `h(0)` before the header.
///
/// This is the log's hottest path (every line written or read): the previous digest
/// lives in one reused 64-byte buffer and SHA-256 runs on raw pointers, with the CPU's SHA
/// extensions where it has them, else libcrypto (see `LinkHasher.linkHex`).
public struct HashChain: Sendable {
  /// The previous line's hex digest as ASCII bytes (empty before the header).
  public private(set) var previous: [UInt8] = []

  public init() {
    previous.reserveCapacity(Self.hexBytes)
  }

  /// The length of a digest written as lowercase hex.
  public static let hexBytes = 64

  /// Hashes `body` onto the chain and returns the new 64-byte hex digest.
  @discardableResult
  public mutating func link(_ body: UnsafeRawBufferPointer) -> [UInt8] {
    link(body, UnsafeRawBufferPointer(start: nil, count: 0))
  }

  /// Hashes `prefix` followed by one byte (a line without its `h`, then its closing brace).
  @discardableResult
  public mutating func link(_ prefix: UnsafeRawBufferPointer, then last: UInt8) -> [UInt8] {
    withUnsafeBytes(of: last) { link(prefix, $0) }
  }

  public mutating func link(_ body: [UInt8]) -> [UInt8] {
    body.withUnsafeBytes { link($0) }
  }

  /// The SHA-256 of `bytes`, 32 bytes (a Content-Security-Policy hash wants them in base64).
  public static func sha256(of bytes: [UInt8]) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: LibCrypto.sha256Bytes) { digest, count in
      bytes.withUnsafeBytes { LibCrypto.sha256($0, UnsafeRawBufferPointer(start: nil, count: 0), into: digest.baseAddress!) }
      count = LibCrypto.sha256Bytes
    }
  }

  /// Lowercase hex SHA-256 of `bytes`.
  public static func hex(of bytes: [UInt8]) -> String {
    var digest = HashChain()
    _ = bytes.withUnsafeBytes { digest.link($0) }
    // A fresh chain has no previous digest, so its first link is the plain SHA-256.
    return String(decoding: digest.previous, as: UTF8.self)
  }

  /// Hashes the previous digest, then `a ‖ b`, and keeps the result as hex.
  private mutating func link(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> [UInt8] {
    // h(0) is empty: the header's link hashes no previous digest.
    let first = previous.isEmpty
    if first { previous = [UInt8](repeating: 0, count: Self.hexBytes) }
    previous.withUnsafeMutableBytes { out in
      LinkHasher.linkHex(previous: first ? nil : UnsafeRawPointer(out.baseAddress!), a, b, into: out.baseAddress!)
    }
    return previous
  }

  /// Writes `digest` (32 bytes) as 64 lowercase hex digits to `hex`.
  static func writeHex(_ digest: UnsafePointer<UInt8>, into hex: UnsafeMutableRawPointer) {
    // Computed digits, not a table: a static array's bounds checks were 7% of the log thread.
    for i in 0..<(LibCrypto.sha256Bytes / 4) {
      hex.storeBytes(of: hexDigits(UnsafeRawPointer(digest), word: i).littleEndian, toByteOffset: 8 * i, as: UInt64.self)
    }
  }

  /// Whether `recorded` (64 hex digits) is `digest` (32 bytes) in lowercase hex: four bytes'
  /// eight digits at a time, without a branch (a mispredicted one costs more than the comparison).
  static func digest(_ digest: UnsafePointer<UInt8>, matches recorded: UnsafePointer<UInt8>) -> Bool {
    let bytes = UnsafeRawPointer(digest), text = UnsafeRawPointer(recorded)
    var difference: UInt64 = 0
    for i in 0..<(LibCrypto.sha256Bytes / 4) {
      difference |= UInt64(littleEndian: text.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)) ^ hexDigits(bytes, word: i)
    }
    return difference == 0
  }

  /// The eight lowercase hex digits of `digest`'s bytes 4i…4i+3 (`word` i), the first digit
  /// in the word's lowest byte: the text of those bytes, read as a little-endian word.
  @inline(__always)
  private static func hexDigits(_ digest: UnsafeRawPointer, word i: Int) -> UInt64 {
    // Each byte into a 16-bit lane, then its high nibble into the lane's low byte and its low
    // nibble into the high byte: one nibble a byte, in the digits' order.
    var lanes = UInt64(UInt32(littleEndian: digest.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
    lanes = (lanes | lanes << 16) & 0x0000_FFFF_0000_FFFF
    lanes = (lanes | lanes << 8) & 0x00FF_00FF_00FF_00FF
    let nibbles = (lanes >> 4) & 0x000F_000F_000F_000F | (lanes & 0x000F_000F_000F_000F) << 8
    // A nibble of 10 or more gets 6 added into bit 4: there the digit skips from `9` to `a`.
    let letters = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
    return nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 39
  }
}
