import JSON

/// Where the members of an event line lie, by the line's bytes from its kind's value on: a log
/// repeats the same few events apart from their `seq` and `t`, and the scan of a line
/// (`PlainObjectScan`) reads nothing before the kind's value but the prefix the validator
/// checked. So a line with the same bytes from there has the same members, at the same
/// distance from the kind's value, and the same kind and key bits: finding them here costs a
/// hash and a comparison instead of a scan.
///
/// Each layout kept has an id no other layout of the stream has (`memoNumber` in its low
/// bits): lines with the same id have the same bytes from the kind on, so whatever is worked
/// out from those bytes alone (the event's decoded body) may be kept by id.
///
/// Limits: `slots` layouts of lines whose bytes from the kind are at most `keyBytesMax` and
/// that have at most `membersMax` members after the kind; a new layout takes the place of the
/// one in its slot. Used by one thread at a time.
final class MemberLayoutMemo {
  static let slots = 256
  static let keyBytesMax = 512
  static let membersMax = 16
  /// Memos a stream may have, each numbered below this.
  static let memosMax = 256

  private struct Entry {
    /// 0 for an empty slot (no line's bytes from its kind are empty).
    var keyCount = 0
    var memberCount = 0
    var kind = EventKind.note
    var keyBits: UInt64 = 0
    var id: UInt64 = 0
  }

  private let memoNumber: UInt64
  /// Layouts kept so far: the next one's id is this above `memoNumber`. A log cannot hold
  /// 2^56 lines, so it never wraps.
  private var kept: UInt64 = 0

  private let keys = UnsafeMutableRawPointer.allocate(byteCount: MemberLayoutMemo.slots * MemberLayoutMemo.keyBytesMax,
                                                      alignment: 8)
  /// Each slot's members after the kind, as offsets from the kind's value.
  private let layouts = UnsafeMutableBufferPointer<JSONMember>.allocate(
    capacity: MemberLayoutMemo.slots * MemberLayoutMemo.membersMax)
  private var entries = [Entry](repeating: Entry(), count: MemberLayoutMemo.slots)

  /// `memoNumber` (below `memosMax`) tells this memo's ids from those of the stream's other memos.
  init(memoNumber: Int) {
    precondition((0..<Self.memosMax).contains(memoNumber), "memo number \(memoNumber) out of range")
    self.memoNumber = UInt64(memoNumber)
  }

  deinit {
    keys.deallocate()
    layouts.deallocate()
  }

  private static func slot(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash >> 40) & (slots - 1) }

  /// The kind, member count after the kind, key bits and id of a line whose bytes from the
  /// kind's value (at `anchor` in its body) are `bytes`, with those members written to `into`
  /// (room for `membersMax`); nil when not known.
  func find(_ bytes: UnsafeRawBufferPointer, hash: UInt64, anchor: Int,
            into members: UnsafeMutableBufferPointer<JSONMember>) -> (kind: EventKind, count: Int, keyBits: UInt64, id: UInt64)? {
    let slot = Self.slot(hash), entry = entries[slot]
    guard entry.keyCount == bytes.count, let base = bytes.baseAddress,
          memcmp(keys + slot * Self.keyBytesMax, base, bytes.count) == 0 else { return nil }
    precondition(members.count >= entry.memberCount, "a layout was asked for with too little room")
    let layout = slot * Self.membersMax
    for i in 0..<entry.memberCount {
      let m = layouts[layout + i]
      members[i] = JSONMember(key: (m.key.lowerBound + anchor)..<(m.key.upperBound + anchor),
                              value: (m.value.lowerBound + anchor)..<(m.value.upperBound + anchor))
    }
    return (entry.kind, entry.memberCount, entry.keyBits, entry.id)
  }

  /// Keeps the layout of a line scanned in full (see `find`), unless it is beyond the limits;
  /// its id, if kept.
  func remember(_ bytes: UnsafeRawBufferPointer, hash: UInt64, anchor: Int, members: UnsafeBufferPointer<JSONMember>,
                kind: EventKind, keyBits: UInt64) -> UInt64? {
    guard !bytes.isEmpty, bytes.count <= Self.keyBytesMax, members.count <= Self.membersMax,
          let base = bytes.baseAddress else { return nil }
    let slot = Self.slot(hash), layout = slot * Self.membersMax
    (keys + slot * Self.keyBytesMax).copyMemory(from: base, byteCount: bytes.count)
    for (i, m) in members.enumerated() {
      assert(m.key.lowerBound >= anchor, "a member after the kind lies before it")
      layouts[layout + i] = JSONMember(key: (m.key.lowerBound - anchor)..<(m.key.upperBound - anchor),
                                       value: (m.value.lowerBound - anchor)..<(m.value.upperBound - anchor))
    }
    kept += 1
    let id = kept << 8 | memoNumber
    entries[slot] = Entry(keyCount: bytes.count, memberCount: members.count, kind: kind, keyBits: keyBits, id: id)
    return id
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
