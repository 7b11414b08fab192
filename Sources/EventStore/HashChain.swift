import Crypto

/// The `h` chain of SPEC §4: `h(n) = hex(SHA-256(h(n-1) as ASCII ‖ BODY(n)))`,
/// with an empty `h(0)` before the header.
public struct HashChain: Sendable {
  /// The previous line's hex digest as ASCII bytes (empty before the header).
  public private(set) var previous: [UInt8] = []

  public init() {}

  /// Hashes `body` onto the chain and returns the new 64-byte hex digest.
  public mutating func link(_ body: UnsafeRawBufferPointer) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(data: previous)
    hasher.update(bufferPointer: body)
    let next = Self.hexBytes(hasher.finalize())
    previous = next
    return next
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
