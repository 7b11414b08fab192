/// FNV-1a, 64 bits: a stable, non-cryptographic digest of a few bytes, the same on every run and
/// every machine (for identifiers derived from text, not for tables an attacker could fill).
public enum FNV1a {
  /// The digest of `bytes`. Inlinable so that each caller gets a loop specialised to its byte
  /// sequence, over contiguous storage when there is one (a native string's UTF-8): unspecialised,
  /// hashing the sandbox prelude's text at every start cost 3.5 M instructions, more than the
  /// rest of a one-verb run, and iterating a `String.UTF8View` by index still cost 250,000.
  @inlinable
  public static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
    if let digest = bytes.withContiguousStorageIfAvailable({ hash(buffer: $0) }) { return digest }
    return bytes.reduce(offsetBasis) { step($0, $1) }
  }

  @inlinable
  static func hash(buffer: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var digest = offsetBasis
    for byte in buffer { digest = step(digest, byte) }
    return digest
  }

  @inlinable
  static func step(_ digest: UInt64, _ byte: UInt8) -> UInt64 { (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }

  @inlinable
  static var offsetBasis: UInt64 { 0xcbf2_9ce4_8422_2325 }
}
