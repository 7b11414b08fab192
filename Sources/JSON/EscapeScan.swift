/// Whether UTF-8 text holds a byte a JSON string must escape: a control character (below
/// 0x20), a quote or a backslash. The canonical writer asks this of every string of every
/// event, and the answer is almost always no, so it reads 8 bytes at a time as one word
/// instead of one byte at a time (a tenth of `run`'s main thread). Swift's `SIMD16` was no
/// help here: its comparisons and `any` compiled to calls, five times the instructions.
@usableFromInline
enum EscapeScan {
  @inlinable
  static func needsEscaping(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = text.baseAddress else { return false }
    let raw = UnsafeRawPointer(base), count = text.count
    guard count >= 8 else {
      // Fewer than 8 bytes: copied over a word of `a`s (which need no escape), read as one word.
      var word: UInt64 = 0x6161_6161_6161_6161
      withUnsafeMutableBytes(of: &word) { $0.baseAddress!.copyMemory(from: raw, byteCount: count) }
      return special(word)
    }
    var offset = 0
    while offset + 8 <= count {
      if special(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
      offset += 8
    }
    // The last bytes, read as the 8 that end the text (some read twice).
    return offset < count && special(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
  }

  /// Whether one of a word's 8 bytes needs an escape. Exact for "any byte": a borrow only
  /// runs upward from a byte that already answers yes.
  @inlinable @inline(__always)
  static func special(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
    let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
    let below = (word &- ones &* 0x20) & ~word
    let zeroQuote = (quote &- ones) & ~quote, zeroBackslash = (backslash &- ones) & ~backslash
    return (below | zeroQuote | zeroBackslash) & highs != 0
  }
}
