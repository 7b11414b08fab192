import JSON

/// A quick check of the lines a log writer produces, for `LogEventStream`: a JSON object with
/// no whitespace whose keys and string values are ASCII without escapes or control characters, whose
/// numbers are non-negative integers of at most 18 digits, and whose other values are `true`,
/// `false` or `null`. Such a line is valid JSON exactly when `JSONParser.validate` says so, with
/// the same members; for anything else (an array, a nested object, an escape, non-ASCII text, a
/// fraction, damage) the scan gives up and the caller asks `JSONParser`.
///
/// Why it is not JSON's `QuickJSONCheck`: that one validates any JSON value (nesting, all
/// escapes, a word at a time) and locates nothing, for `verify`; this one locates the members
/// of one flat object, the event lines a fold decodes in place, and knows the event-line prefix
/// (`EventPrefix`). One scanner for both would make `verify` record members it never reads, or
/// the fold follow nesting it then gives up on; not merged, and not measured.
enum PlainObjectScan {
  /// The number of members of `bytes` when it is such an object with no key twice, and at
  /// most `members.count` of them, written to `members` (key without quotes, value as
  /// written); nil when the scan cannot tell.
  static func members(_ bytes: UnsafeRawBufferPointer, into members: UnsafeMutableBufferPointer<JSONMember>) -> Int? {
    let n = bytes.count
    guard n >= 2, bytes[0] == UInt8(ascii: "{"), bytes[n - 1] == UInt8(ascii: "}") else { return nil }
    if n == 2 { return 0 }
    return Self.members(bytes, into: members, from: 1, count: 0, seen: 0)?.count
  }

  /// As `members`, for an event line whose start, `{"seq":N,"t":T,"kind":"K"`, `LineRules`
  /// has checked (`prefix`): its first three members are written without scanning them again.
  /// With the count comes the `keyBit` of every key, or-ed: a key whose bit is not there is
  /// not a member.
  static func eventMembers(_ bytes: UnsafeRawBufferPointer, prefix: EventPrefix,
                           into members: UnsafeMutableBufferPointer<JSONMember>) -> (count: Int, keys: UInt64)? {
    let rest = Int(prefix.rest)
    guard members.count >= 3, rest < bytes.count, bytes[bytes.count - 1] == UInt8(ascii: "}") else { return nil }
    (members[0], members[1], members[2]) = prefix.members
    let seen = bit(keyCount: 3, first: UInt8(ascii: "s")) | bit(keyCount: 1, first: UInt8(ascii: "t"))
      | bit(keyCount: 4, first: UInt8(ascii: "k"))
    if bytes[rest] == UInt8(ascii: "}") { return rest == bytes.count - 1 ? (3, seen) : nil }
    guard bytes[rest] == UInt8(ascii: ","), rest + 1 < bytes.count else { return nil }
    return Self.members(bytes, into: members, from: rest + 1, count: 3, seen: seen)
  }

  /// One bit per key, by its length and first byte: only a key whose bit is set already
  /// needs comparing with the others.
  @inline(__always)
  static func bit(keyCount: Int, first: UInt8) -> UInt64 {
    1 << ((UInt64(keyCount) &* 7 &+ UInt64(first)) & 63)
  }

  /// The scan from `i`, a key's opening quote, with `count` members found before and their
  /// keys' bits in `seen`; the members found and all their keys' bits.
  private static func members(_ bytes: UnsafeRawBufferPointer, into members: UnsafeMutableBufferPointer<JSONMember>,
                              from start: Int, count found: Int, seen known: UInt64) -> (count: Int, keys: UInt64)? {
    let n = bytes.count
    var count = found
    var seen = known
    var i = start
    while true {
      // "key":
      guard count < members.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
      let keyStart = i + 1
      guard let keyEnd = plainStringEnd(bytes, from: keyStart) else { return nil }
      i = keyEnd + 1
      guard i < n, bytes[i] == UInt8(ascii: ":") else { return nil }
      i += 1
      let valueStart = i
      guard i < n else { return nil }
      switch bytes[i] {
      case UInt8(ascii: "\""):
        guard let end = plainStringEnd(bytes, from: i + 1) else { return nil }
        i = end + 1
      case UInt8(ascii: "0"):
        i += 1
      case UInt8(ascii: "1")...UInt8(ascii: "9"):
        i += 1
        while i < n, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
        guard i - valueStart <= 18 else { return nil }
      case UInt8(ascii: "t"): guard word(bytes, at: i, "true") else { return nil }; i += 4
      case UInt8(ascii: "f"): guard word(bytes, at: i, "false") else { return nil }; i += 5
      case UInt8(ascii: "n"): guard word(bytes, at: i, "null") else { return nil }; i += 4
      default: return nil
      }
      guard i < n else { return nil }
      let key = keyStart..<keyEnd
      let bit = bit(keyCount: key.count, first: bytes[keyStart])
      if seen & bit != 0 {
        for m in members[..<count] where m.key.count == key.count
          && memcmp(bytes.baseAddress! + m.key.lowerBound, bytes.baseAddress! + key.lowerBound, key.count) == 0 {
          return nil
        }
      }
      seen |= bit
      members[count] = JSONMember(key: key, value: valueStart..<i)
      count += 1
      if bytes[i] == UInt8(ascii: "}") { return i == n - 1 ? (count, seen) : nil }
      guard bytes[i] == UInt8(ascii: ","), i + 1 < n else { return nil }
      i += 1
    }
  }

  /// Where the string whose text starts at `start` ends (its closing quote), if every byte of
  /// it is ASCII, not a control character (below 0x20), `"` or `\`.
  private static func plainStringEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    var i = start
    // Eight bytes at a time while none of them is special (a quote, a backslash, a control
    // character or a byte of 0x80 and up): the word tests are exact for "any byte in the word".
    let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
    while i + 8 <= bytes.count {
      let x = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      let quote = x ^ (ones &* UInt64(UInt8(ascii: "\"")))
      let backslash = x ^ (ones &* UInt64(UInt8(ascii: "\\")))
      let special = ((x &- ones &* 0x20) & ~x) | x | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
      if special & highs != 0 { break }
      i += 8
    }
    while i < bytes.count {
      let c = bytes[i]
      if c == UInt8(ascii: "\"") { return i }
      guard c >= 0x20, c < 0x80, c != UInt8(ascii: "\\") else { return nil }
      i += 1
    }
    return nil
  }

  private static func word(_ bytes: UnsafeRawBufferPointer, at i: Int, _ word: StaticString) -> Bool {
    let n = word.utf8CodeUnitCount
    return i + n <= bytes.count && memcmp(bytes.baseAddress! + i, word.utf8Start, n) == 0
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
