import Crypto

/// The `h` chain of SPEC §4: `h(n) = hex(SHA-256(h(n-1) as ASCII ‖ BODY(n)))`,
/// with an empty `h(0)` before the header.
///
/// This is the log's hottest path (every line written or read), so it keeps the
/// previous digest in a reused buffer and feeds SHA-256 raw pointers.
public struct HashChain: Sendable {
  /// The previous line's hex digest as ASCII bytes (empty before the header).
  public private(set) var previous: [UInt8] = []

  public init() {
    previous.reserveCapacity(64)
  }

  /// Hashes `body` onto the chain and returns the new 64-byte hex digest.
  @discardableResult
  public mutating func link(_ body: UnsafeRawBufferPointer) -> [UInt8] {
    var hasher = SHA256()
    previous.withUnsafeBytes { hasher.update(bufferPointer: $0) }
    hasher.update(bufferPointer: body)
    store(hasher.finalize())
    return previous
  }

  /// Hashes `prefix` followed by one byte (a line without its `h`, then its closing brace).
  @discardableResult
  public mutating func link(_ prefix: UnsafeRawBufferPointer, then last: UInt8) -> [UInt8] {
    var hasher = SHA256()
    previous.withUnsafeBytes { hasher.update(bufferPointer: $0) }
    hasher.update(bufferPointer: prefix)
    withUnsafeBytes(of: last) { hasher.update(bufferPointer: $0) }
    store(hasher.finalize())
    return previous
  }

  private mutating func store(_ digest: SHA256.Digest) {
    if previous.count != 64 { previous = [UInt8](repeating: 0, count: 64) }
    previous.withUnsafeMutableBufferPointer { out in
      digest.withUnsafeBytes { raw in
        for i in 0..<32 {
          out[2 * i] = Self.digits[Int(raw[i] >> 4)]
          out[2 * i + 1] = Self.digits[Int(raw[i] & 0x0F)]
        }
      }
    }
  }

  public mutating func link(_ body: [UInt8]) -> [UInt8] {
    body.withUnsafeBytes { link($0) }
  }

  /// Lowercase hex SHA-256 of `bytes`.
  public static func hex(of bytes: [UInt8]) -> String {
    String(decoding: hexBytes(SHA256.hash(data: bytes)), as: UTF8.self)
  }

  private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

  static func hexBytes<D: Sequence>(_ digest: D) -> [UInt8] where D.Element == UInt8 {
    var out = [UInt8]()
    out.reserveCapacity(64)
    for b in digest {
      out.append(digits[Int(b >> 4)])
      out.append(digits[Int(b & 0x0F)])
    }
    return out
  }
}
