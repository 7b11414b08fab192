internal import CLibCrypto

/// SHA-256 from Debian's libcrypto, with its context on the stack: where the CPU lacks
/// the SHA extensions (`LinkHasher`), the hash chain hashes every line of every log
/// through it, so this path allocates nothing. The only file that calls into `CLibCrypto`.
enum LibCrypto {
  /// The length of a SHA-256 digest.
  static let sha256Bytes = 32

  /// Writes the SHA-256 of `a ‖ b ‖ c` to `digest` (32 bytes).
  ///
  /// The corresponding C functions are `SHA256_Init`, `SHA256_Update` and `SHA256_Final`.
  static func sha256(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer,
                     _ c: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
                     into digest: UnsafeMutablePointer<UInt8>) {
    var context = SHA256_CTX()
    // OpenSSL documents these as returning 1; they cannot fail for SHA-256 in memory.
    var ok = SHA256_Init(&context)
    if a.count > 0 { ok &= SHA256_Update(&context, a.baseAddress, a.count) }
    if b.count > 0 { ok &= SHA256_Update(&context, b.baseAddress, b.count) }
    if c.count > 0 { ok &= SHA256_Update(&context, c.baseAddress, c.count) }
    ok &= SHA256_Final(digest, &context)
    precondition(ok == 1, "libcrypto's SHA-256 failed")
  }
}
