/// FNV-1a, 64 bits: a stable, non-cryptographic digest of a few bytes, the same on every run and
/// every machine (for identifiers derived from text, not for tables an attacker could fill).
public enum FNV1a {
  /// The digest of `bytes`.
  public static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
    bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
  }
}
