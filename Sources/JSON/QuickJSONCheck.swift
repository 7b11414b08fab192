#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `verify`'s quick JSON check of one line: a single pass over the bytes, eight at a time in
/// string bodies, that allocates nothing.
///
/// It says `true` only for text `JSONParser.validate` accepts; `false` means "not sure", and the
/// caller then asks `JSONParser`, whose verdict stands. So that it never has to judge them, it
/// is not sure of what a canonical log seldom holds: keys with escapes, numbers with a fraction
/// or an exponent or of more than 18 characters, nesting deeper than `depthMax` and more than
/// `keysMax` keys open at once.
package final class QuickJSONCheck {
  /// Containers open at once that it follows (`JSONParser` allows 64).
  package static let depthMax = 32
  /// Keys of the open objects that it keeps for the duplicate check.
  package static let keysMax = 256
  /// Bytes after the end of the text that `accepts` may read (it reads a word at a time).
  package static let readsPastEnd = 7

  /// Where each kept key starts and how long it is.
  private let keyStarts = UnsafeMutablePointer<UnsafePointer<UInt8>>.allocate(capacity: keysMax)
  private let keyLengths = UnsafeMutablePointer<Int>.allocate(capacity: keysMax)
  /// The first 8 bytes of each kept key (fewer for a shorter one, the rest zero).
  private let keyHeads = UnsafeMutablePointer<UInt64>.allocate(capacity: keysMax)
  /// For each open object, the number of keys kept before its own.
  private let firstKeys = UnsafeMutablePointer<Int>.allocate(capacity: depthMax)

  deinit {
    keyStarts.deallocate()
    keyLengths.deallocate()
    keyHeads.deallocate()
    firstKeys.deallocate()
  }

  /// True when `count` bytes at `start` are exactly one JSON value that `JSONParser` accepts;
  /// false when not, or not sure. `readsPastEnd` bytes after them must be readable.
  package init() {}

  package func accepts(_ start: UnsafePointer<UInt8>, count: Int) -> Bool {
    check(from: start, end: start + count, depth: 0, objects: 0, keys: 0, valueFirst: true)
  }

  /// The keys of an object's first three members: offset from the object's start and length.
  package typealias CheckedKeys = (KeySpan, KeySpan, KeySpan)
  /// Where a key's text starts, from the object's start, and how long it is.
  package typealias KeySpan = (offset: Int, length: Int)

  /// Like `accepts`, for an object whose start, up to `rest` (an offset from `start`), is known
  /// to be valid JSON holding the three members whose keys are `checkedKeys`: it goes on from `rest`, with those keys kept for the duplicate check.
  package func acceptsObject(_ start: UnsafePointer<UInt8>, count: Int,
                             checkedKeys: CheckedKeys, rest: Int) -> Bool {
    firstKeys[0] = 0
    var keys = 0
    keep(start + checkedKeys.0.offset, length: checkedKeys.0.length, keys: &keys)
    keep(start + checkedKeys.1.offset, length: checkedKeys.1.length, keys: &keys)
    keep(start + checkedKeys.2.offset, length: checkedKeys.2.length, keys: &keys)
    return check(from: start + rest, end: start + count, depth: 1, objects: 1, keys: keys, valueFirst: false)
  }

  /// The pass itself, from `start` inside `depth` open containers (bit d of `objects`: the one
  /// at depth d is an object), with a value next or, without `valueFirst`, what follows one.
  private func check(from start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, depth startDepth: Int,
                     objects startObjects: UInt64, keys startKeys: Int, valueFirst: Bool) -> Bool {
    var p = start
    var depth = startDepth
    var objects = startObjects
    var keys = startKeys
    var valueNext = valueFirst
    nextValue: while true {
      if valueNext {
        guard p < end else { return false }
        switch p.pointee {
        case UInt8(ascii: "{"):
          guard depth < Self.depthMax else { return false }
          p += 1
          if p < end, p.pointee == UInt8(ascii: "}") {
            p += 1
          } else {
            firstKeys[depth] = keys
            objects |= 1 << depth
            depth += 1
            guard key(&p, end: end, keys: &keys, objectKeys: firstKeys[depth - 1]) else { return false }
            continue nextValue
          }
        case UInt8(ascii: "["):
          guard depth < Self.depthMax else { return false }
          p += 1
          if p < end, p.pointee == UInt8(ascii: "]") {
            p += 1
          } else {
            objects &= ~(1 << depth)
            depth += 1
            continue nextValue
          }
        case UInt8(ascii: "\""):
          guard Self.string(&p, end: end, keyOnly: false) else { return false }
        case UInt8(ascii: "t"):
          guard Self.literal(&p, end: end, "true") else { return false }
        case UInt8(ascii: "f"):
          guard Self.literal(&p, end: end, "false") else { return false }
        case UInt8(ascii: "n"):
          guard Self.literal(&p, end: end, "null") else { return false }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
          guard Self.integer(&p, end: end) else { return false }
        default:
          return false
        }
      }
      valueNext = true
      // After a value: close what ends here, then expect the next member or item.
      while depth > 0 {
        guard p < end else { return false }
        let c = p.pointee
        p += 1
        let inObject = objects & (1 << (depth - 1)) != 0
        if c == UInt8(ascii: ",") {
          if inObject, !key(&p, end: end, keys: &keys, objectKeys: firstKeys[depth - 1]) { return false }
          continue nextValue
        }
        guard c == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
        depth -= 1
        if inObject { keys = firstKeys[depth] }
      }
      return p == end
    }
  }

  /// A key without escapes, not among the `keys - objectKeys` kept for its object, and its `:`.
  private func key(_ p: inout UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, keys: inout Int, objectKeys: Int) -> Bool {
    guard p < end, p.pointee == UInt8(ascii: "\""), keys < Self.keysMax else { return false }
    let start = p + 1
    guard Self.string(&p, end: end, keyOnly: true) else { return false }
    let length = start.distance(to: p) - 1
    let head = Self.head(start, length: length)
    for k in objectKeys..<keys where keyLengths[k] == length && keyHeads[k] == head
      && (length <= 8 || memcmp(keyStarts[k] + 8, start + 8, length - 8) == 0) {
      return false
    }
    keep(start, length: length, keys: &keys)
    guard p < end, p.pointee == UInt8(ascii: ":") else { return false }
    p += 1
    return true
  }

  /// Keeps the key of `length` bytes at `start` (there must be room).
  private func keep(_ start: UnsafePointer<UInt8>, length: Int, keys: inout Int) {
    keyStarts[keys] = start
    keyLengths[keys] = length
    keyHeads[keys] = Self.head(start, length: length)
    keys += 1
  }

  /// A key's first 8 bytes as a word, the rest zero (its quote, `:` and a value follow, so 8
  /// bytes are readable).
  @inline(__always)
  private static func head(_ start: UnsafePointer<UInt8>, length: Int) -> UInt64 {
    let bytes = min(length, 8)
    return UInt64(littleEndian: UnsafeRawPointer(start).loadUnaligned(as: UInt64.self))
      & (bytes == 8 ? ~0 : (1 << (8 * UInt64(bytes))) - 1)
  }

  /// The lanes of `word` that hold `"`, `\`, a control character or a byte of 0x80 or more
  /// (the high bit of each such lane; below the lowest, no lane is marked wrongly).
  @inline(__always)
  private static func stops(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quote = (word ^ (ones &* 0x22)) &- ones
    let backslash = (word ^ (ones &* 0x5C)) &- ones
    let control = word &- (ones &* 0x20)
    return (quote | backslash | control | word) & (ones &* 0x80)
  }

  /// A string from its opening quote past its closing one; with `keyOnly`, one without escapes.
  private static func string(_ p: inout UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, keyOnly: Bool) -> Bool {
    p += 1
    while p < end {
      let word = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
      let found = stops(word)
      if found == 0 {
        p += 8
        continue
      }
      p += found.trailingZeroBitCount >> 3
      guard p < end else { return false }
      let c = p.pointee
      if c == UInt8(ascii: "\"") {
        p += 1
        return true
      }
      if c == UInt8(ascii: "\\") {
        guard !keyOnly, escape(&p, end: end) else { return false }
      } else {
        guard c >= 0x80, utf8Scalar(&p, end: end) else { return false }
      }
    }
    return false
  }

  /// One escape, from its backslash: `JSONParser`'s rules, surrogate pairs included.
  private static func escape(_ p: inout UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> Bool {
    guard end - p >= 2 else { return false }
    switch p[1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
         UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      p += 2
      return true
    case UInt8(ascii: "u"):
      guard let unit = hex4(p + 2, end: end) else { return false }
      p += 6
      if (0xDC00...0xDFFF).contains(unit) { return false }
      guard (0xD800...0xDBFF).contains(unit) else { return true }
      guard end - p >= 2, p[0] == UInt8(ascii: "\\"), p[1] == UInt8(ascii: "u"),
            let low = hex4(p + 2, end: end), (0xDC00...0xDFFF).contains(low) else { return false }
      p += 6
      return true
    default:
      return false
    }
  }

  private static func hex4(_ p: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> UInt32? {
    guard end - p >= 4 else { return nil }
    var value: UInt32 = 0
    for k in 0..<4 {
      guard let digit = JSONParser.hexValue(p[k]) else { return nil }
      value = value << 4 | digit
    }
    return value
  }

  /// One multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates), as `JSONParser`.
  private static func utf8Scalar(_ p: inout UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> Bool {
    guard let (continuations, low, high) = JSONParser.utf8Lead(p.pointee),
          end - p > continuations, p[1] >= low, p[1] <= high else { return false }
    for k in 2..<(continuations + 1) where k <= continuations {
      guard p[k] & 0xC0 == 0x80 else { return false }
    }
    p += continuations + 1
    return true
  }

  private static func literal(_ p: inout UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, _ word: StaticString) -> Bool {
    let n = word.utf8CodeUnitCount
    guard end - p >= n, memcmp(p, word.utf8Start, n) == 0 else { return false }
    p += n
    return true
  }

  /// An integer of at most 18 characters (which `JSONParser` checks no further).
  private static func integer(_ p: inout UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> Bool {
    let start = p
    if p.pointee == UInt8(ascii: "-") { p += 1 }
    guard p < end, isDigit(p.pointee) else { return false }
    if p.pointee == UInt8(ascii: "0") {
      p += 1
    } else {
      while p < end, isDigit(p.pointee) { p += 1 }
    }
    guard start.distance(to: p) <= 18 else { return false }
    guard p < end else { return true }
    let c = p.pointee
    return !isDigit(c) && c != UInt8(ascii: ".") && c != UInt8(ascii: "e") && c != UInt8(ascii: "E")
  }

  @inline(__always)
  private static func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }
}
