import JSON

/// Where the members of an event line lie, by the line's bytes from its kind's value on: a log
/// repeats the same few events apart from their `seq` and `t`, and the scan of a line
/// (`PlainObjectScan`) reads nothing before the kind's value but the prefix the validator
/// checked. So a line with the same bytes from there has the same members, at the same
/// distance from the kind's value, and the same kind and key bits: finding them here costs a
/// hash and a comparison instead of a scan.
///
/// Each layout kept gets an id no other layout of the process's recent streams has: the
/// layouts kept before it by this memo, then the stream's number (`streamNumber`, the low 24
/// bits of a count of streams), then the memo's number within the stream. Lines with the same
/// id have the same bytes from the kind on, so what is worked out from those bytes alone (the
/// event's decoded body) may be kept by id.
///
/// Limits: `slots` layouts of lines whose bytes from the kind are at most `keyBytesMax` and
/// that have at most `membersMax` members after the kind; a new layout takes the place of the
/// one in its slot; after `keptMax` layouts a memo keeps no more (the lines are scanned).
/// 256 KiB a memo (keys and layouts), 16 memos a stream. Used by one thread at a time.
final class MemberLayoutMemo {
  static let slots = 256
  static let keyBytesMax = 512
  static let membersMax = 16
  /// Memos a stream may have, each numbered below this.
  static let memosMax = 256
  /// Stream numbers are taken modulo this.
  static let streamsMax: UInt64 = 1 << 24
  /// Layouts one memo keeps at most: its count fills the id's top 32 bits.
  static let keptMax: UInt64 = (1 << 32) - 1

  /// A line's bytes from its kind's value on, where they start in the line, and their hash.
  struct Key {
    let bytes: UnsafeRawBufferPointer
    let anchor: Int
    let hash: UInt64

    /// The key of `body`, whose kind's value starts at `anchor`; nil when the bytes from there
    /// are empty or too long to keep (then they are not even hashed).
    init?(_ body: UnsafeRawBufferPointer, anchor: Int) {
      guard anchor < body.count, body.count - anchor <= MemberLayoutMemo.keyBytesMax else { return nil }
      bytes = UnsafeRawBufferPointer(rebasing: body[anchor...])
      self.anchor = anchor
      hash = QuickHash.ofEvery(bytes)
    }
  }

  private struct Entry {
    /// 0 for an empty slot (a key is never empty).
    var keyCount = 0
    var memberCount = 0
    var kind = EventKind.note
    var keyBits: UInt64 = 0
    var id: UInt64 = 0
  }

  /// The stream's and memo's numbers, as the low 32 bits of every id.
  private let idBase: UInt64
  private var kept: UInt64 = 0

  private let keys = UnsafeMutableRawPointer.allocate(byteCount: MemberLayoutMemo.slots * MemberLayoutMemo.keyBytesMax,
                                                      alignment: 8)
  /// Each slot's members after the kind, as offsets from the kind's value.
  private let layouts = UnsafeMutableBufferPointer<JSONMember>.allocate(
    capacity: MemberLayoutMemo.slots * MemberLayoutMemo.membersMax)
  private var entries = [Entry](repeating: Entry(), count: MemberLayoutMemo.slots)

  /// `memoNumber` (below `memosMax`) tells this memo's ids from those of the stream's other
  /// memos, and `streamNumber` (below `streamsMax`) from those of other streams.
  init(memoNumber: Int, streamNumber: UInt64) {
    precondition((0..<Self.memosMax).contains(memoNumber), "memo number \(memoNumber) out of range")
    precondition(streamNumber < Self.streamsMax, "stream number \(streamNumber) out of range")
    idBase = streamNumber << 8 | UInt64(memoNumber)
  }

  deinit {
    keys.deallocate()
    layouts.deallocate()
  }

  static func slot(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash >> 40) & (slots - 1) }

  /// The kind, member count after the kind, key bits and id of a line with `key`, its members
  /// written to `into` (room for `membersMax`); nil when not known.
  func find(_ key: Key, into members: UnsafeMutableBufferPointer<JSONMember>)
    -> (kind: EventKind, count: Int, keyBits: UInt64, id: UInt64)? {
    let slot = Self.slot(key.hash), entry = entries[slot]
    guard entry.keyCount > 0, entry.keyCount == key.bytes.count,
          memcmp(keys + slot * Self.keyBytesMax, key.bytes.baseAddress!, key.bytes.count) == 0 else { return nil }
    precondition(members.count >= entry.memberCount, "a layout was asked for with too little room")
    let layout = slot * Self.membersMax, anchor = key.anchor
    for i in 0..<entry.memberCount {
      let m = layouts[layout + i]
      members[i] = JSONMember(key: (m.key.lowerBound + anchor)..<(m.key.upperBound + anchor),
                              value: (m.value.lowerBound + anchor)..<(m.value.upperBound + anchor))
    }
    return (entry.kind, entry.memberCount, entry.keyBits, entry.id)
  }

  /// Keeps the layout of a line with `key` that the scan read in full, unless it is beyond
  /// the limits; its id, if kept.
  func remember(_ key: Key, members: UnsafeBufferPointer<JSONMember>, kind: EventKind, keyBits: UInt64) -> UInt64? {
    guard members.count <= Self.membersMax, kept < Self.keptMax else { return nil }
    let slot = Self.slot(key.hash), layout = slot * Self.membersMax, anchor = key.anchor
    (keys + slot * Self.keyBytesMax).copyMemory(from: key.bytes.baseAddress!, byteCount: key.bytes.count)
    for (i, m) in members.enumerated() {
      assert(m.key.lowerBound >= anchor, "a member after the kind lies before it")
      layouts[layout + i] = JSONMember(key: (m.key.lowerBound - anchor)..<(m.key.upperBound - anchor),
                                       value: (m.value.lowerBound - anchor)..<(m.value.upperBound - anchor))
    }
    kept += 1
    let id = kept << 32 | idBase
    entries[slot] = Entry(keyCount: key.bytes.count, memberCount: members.count, kind: kind, keyBits: keyBits, id: id)
    return id
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
