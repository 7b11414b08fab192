import JSON

/// An event line read in place by `LogEventStream`: its canonical body and where each of its
/// members lies, valid until the stream moves on. Each member is parsed only when asked for;
/// `string`, `int` and `bool` build no JSON value, and a string the stream has met before
/// (a callback's signature, a target) comes back without being built again.
public struct InPlaceEvent: EventFields {
  public let seq: Int64
  public let t: Int64
  public let kind: EventKind
  /// The line's canonical body with its closing brace (without `h`).
  public let body: UnsafeRawBufferPointer
  /// The body's members in order; the first three are `seq`, `t` and `kind`.
  let members: UnsafeBufferPointer<JSONMember>
  /// The `PlainObjectScan.bit` of each member's key, or-ed (all bits when not known): a
  /// lookup of a key whose bit is missing needs no search.
  let keys: UInt64
  /// The stream's strings met so far (it outlives the event).
  let strings: UnsafeMutablePointer<StringTable>
  /// Events of this stream with the same id have the same bytes from the kind's value to the
  /// closing brace (all but `seq` and `t`: they decode alike); events with the same bytes may
  /// have different ids. Ids of different streams differ (up to 2^24 streams a process). Nil
  /// when the stream worked none out for this event.
  public let layoutID: UInt64?

  init(seq: Int64, t: Int64, kind: EventKind, body: UnsafeRawBufferPointer, members: UnsafeBufferPointer<JSONMember>,
       keys: UInt64 = ~0, layoutID: UInt64? = nil, strings: UnsafeMutablePointer<StringTable>) {
    self.seq = seq; self.t = t; self.kind = kind; self.body = body; self.members = members; self.keys = keys
    self.strings = strings; self.layoutID = layoutID
  }

  private var utf8: UnsafeBufferPointer<UInt8> { body.assumingMemoryBound(to: UInt8.self) }

  public subscript(key: String) -> JSONValue? {
    guard let range = value(key) else { return nil }
    return LogEventView.value(utf8, range)
  }

  /// Where the value of the member `key` lies in `body`; nil if there is none.
  private func value(_ key: String) -> Range<Int>? {
    var key = key
    return key.withUTF8 { k in
      guard let first = k.first else { return members.dropFirst(3).first { $0.key.isEmpty }?.value }
      // Most lookups of a member an event lacks end here.
      guard keys & PlainObjectScan.bit(keyCount: k.count, first: first) != 0 else { return nil }
      let base = body.baseAddress!.assumingMemoryBound(to: UInt8.self)
      search: for m in members.dropFirst(3) where m.key.count == k.count && base[m.key.lowerBound] == first {
        // Keys are short: a loop costs less than a call to memcmp.
        for i in 1..<k.count where base[m.key.lowerBound + i] != k[i] { continue search }
        return m.value
      }
      return nil
    }
  }

  public func string(_ key: String) -> String? {
    guard let range = value(key), range.count >= 2, body[range.lowerBound] == UInt8(ascii: "\"") else { return nil }
    let inner = UnsafeRawBufferPointer(rebasing: body[(range.lowerBound + 1)..<(range.upperBound - 1)])
    if inner.isEmpty || memchr(inner.baseAddress!, 0x5C, inner.count) == nil { return strings.pointee.string(inner) }
    return LogEventView.value(utf8, range)?.stringValue
  }

  public func int(_ key: String) -> Int64? { value(key).flatMap { LogEventView.value(utf8, $0)?.intValue } }

  public func bool(_ key: String) -> Bool? {
    guard let range = value(key) else { return nil }
    switch body[range.lowerBound] {
    case UInt8(ascii: "t"): return true
    case UInt8(ascii: "f"): return false
    default: return nil
    }
  }
}

/// The strings a stream has met, so that one met again is not built again: a string longer
/// than fits in a `String` inline costs an allocation, and a log repeats the same few
/// signatures and targets. Fixed size; a new string takes the place of an old one with the
/// same slot.
struct StringTable: ~Copyable {
  private static let slots = 1024
  private var table = [String?](repeating: nil, count: StringTable.slots)

  /// The string of the UTF-8 bytes `utf8` (valid, without escapes).
  mutating func string(_ utf8: UnsafeRawBufferPointer) -> String {
    // Up to 15 bytes a String holds its bytes inline: building it is cheaper than finding it.
    if utf8.count <= 15 { return String(decoding: utf8, as: UTF8.self) }
    // A clash only costs building the string again.
    let slot = Int(truncatingIfNeeded: QuickHash.of(utf8) >> 40) & (Self.slots - 1)
    if var known = table[slot] {
      let same = known.withUTF8 { k in k.count == utf8.count && memcmp(k.baseAddress!, utf8.baseAddress!, k.count) == 0 }
      if same { return known }
    }
    let made = String(decoding: utf8, as: UTF8.self)
    table[slot] = made
    return made
  }
}

/// A cheap hash of a text's UTF-8 bytes, from its length and its first and last eight bytes:
/// for tables of names where a clash only costs a comparison (not for anything an attacker
/// could fill). Much cheaper than `Hasher` on the long names a log repeats.
public enum QuickHash {
  public static func of(_ utf8: UnsafeRawBufferPointer) -> UInt64 {
    var head: UInt64 = 0, tail: UInt64 = 0
    if utf8.count >= 8 {
      head = utf8.loadUnaligned(as: UInt64.self)
      tail = utf8.loadUnaligned(fromByteOffset: utf8.count - 8, as: UInt64.self)
    } else {
      for b in utf8 { head = head << 8 | UInt64(b) }
    }
    return ((head &* 0x9E37_79B9_7F4A_7C15) ^ tail ^ UInt64(utf8.count)) &* 0xC2B2_AE3D_27D4_EB4F
  }

  /// A cheap hash of every byte of `bytes` after `seed`, 32 at a time in four independent
  /// lanes, the same on every run: for tables keyed by texts that may differ anywhere, whose
  /// equal hashes are then compared byte by byte (a clash only costs a comparison). The fold's
  /// layouts and the diff's indexes and caches use it.
  public static func ofEvery(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
    let n = bytes.count
    let length = (UInt64(truncatingIfNeeded: n) ^ seed) &* 0x9E37_79B9_7F4A_7C15
    guard n >= 8 else { return of(bytes) ^ length }
    func word(_ i: Int) -> UInt64 { bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self) }
    let k: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    var (a, b, c, d) = (length, UInt64(0x1656_67B1_9E37_79F9), UInt64(0x27D4_EB2F_1656_67C5), UInt64(0x85EB_CA77_C2B2_AE63))
    var i = 0
    while i &+ 32 <= n {
      a = (a ^ word(i)) &* k
      b = (b ^ word(i &+ 8)) &* k
      c = (c ^ word(i &+ 16)) &* k
      d = (d ^ word(i &+ 24)) &* k
      i &+= 32
    }
    while i &+ 8 <= n {
      a = (a ^ word(i)) &* k
      i &+= 8
    }
    // The last eight bytes, overlapping those already taken.
    a = (a ^ word(n &- 8)) &* 0x9E37_79B9_7F4A_7C15
    let h = (a ^ b.rotated(17) ^ c.rotated(31) ^ d.rotated(47)) &* k
    return h ^ (h >> 29)
  }
}

extension UInt64 {
  fileprivate func rotated(_ bits: UInt64) -> UInt64 { self << bits | self >> (64 &- bits) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
