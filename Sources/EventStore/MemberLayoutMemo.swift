import JSON

/// Where the members of an event line lie, by the line's bytes from its kind's value on: a log
/// repeats the same few events apart from their `seq` and `t`, and the scan of a line
/// (`PlainObjectScan`) reads nothing before the kind's value but the prefix the validator
/// checked. So a line with the same bytes from there has the same members, at the same
/// distance from the kind's value, and the same kind and key bits: finding them here costs a
/// hash and a comparison instead of a scan.
///
/// Each layout kept gets the stream's id for its bytes from the kind on (`LayoutIDs`), the
/// same whichever of the stream's memos met it: lines with the same id have the same bytes
/// from the kind on, so what is worked out from those bytes alone (the event's decoded body)
/// may be kept by id.
///
/// A layout is kept in the first free slot of `probesMax` from its hash's slot; when all are
/// taken, it takes the place of the one in its hash's slot. (With one slot a layout, two
/// frequent layouts whose hashes share it, such as a verb and the callback after it, took
/// each other's place on every line: a tenth of a 952,030-event log was scanned again.)
///
/// Limits: `slots` layouts of lines whose bytes from the kind are at most `keyBytesMax` and
/// that have at most `membersMax` members after the kind. 256 KiB a memo (keys and layouts),
/// 16 memos a stream. Used by one thread at a time.
final class MemberLayoutMemo {
  static let slots = 256
  static let keyBytesMax = 512
  static let membersMax = 16
  /// Slots a layout may take, from its hash's on.
  static let probesMax = 4
  /// Stream numbers are taken modulo this.
  static let streamsMax: UInt64 = 1 << 24

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
    var hash: UInt64 = 0
    var memberCount = 0
    var kind = EventKind.note
    var keyBits: UInt64 = 0
    /// 0 for none (`LayoutIDs` had no more).
    var id: UInt64 = 0
  }

  /// The stream's ids.
  private let ids: LayoutIDs
  /// `ids` gave none once (it has no new ones left): from then on it is not asked, and a
  /// layout kept gets no id, even one whose text `ids` knows. (In a log whose lines never
  /// repeat, every line would otherwise copy its text and take the lock.)
  private var idsExhausted = false

  private let keys = UnsafeMutableRawPointer.allocate(byteCount: MemberLayoutMemo.slots * MemberLayoutMemo.keyBytesMax,
                                                      alignment: 8)
  /// Each slot's members after the kind, as offsets from the kind's value.
  private let layouts = UnsafeMutableBufferPointer<JSONMember>.allocate(
    capacity: MemberLayoutMemo.slots * MemberLayoutMemo.membersMax)
  private var entries = [Entry](repeating: Entry(), count: MemberLayoutMemo.slots)

  /// A memo whose layouts take their ids from `ids`, its stream's.
  init(ids: LayoutIDs) {
    self.ids = ids
  }

  deinit {
    keys.deallocate()
    layouts.deallocate()
  }

  static func slot(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash >> 40) & (slots - 1) }

  /// The kind, member count after the kind, key bits and id (nil for none) of a line with
  /// `key`, its members written to `into` (room for `membersMax`); nil when not known.
  func find(_ key: Key, into members: UnsafeMutableBufferPointer<JSONMember>)
    -> (kind: EventKind, count: Int, keyBits: UInt64, id: UInt64?)? {
    let home = Self.slot(key.hash)
    for probe in 0..<Self.probesMax {
      let slot = (home + probe) & (Self.slots - 1), entry = entries[slot]
      // Slots are never emptied, so a layout kept later than a free slot is not past it.
      if entry.keyCount == 0 { return nil }
      guard entry.hash == key.hash, entry.keyCount == key.bytes.count,
            memcmp(keys + slot * Self.keyBytesMax, key.bytes.baseAddress!, key.bytes.count) == 0 else { continue }
      precondition(members.count >= entry.memberCount, "a layout was asked for with too little room")
      let layout = slot * Self.membersMax, anchor = key.anchor
      for i in 0..<entry.memberCount {
        let m = layouts[layout + i]
        members[i] = JSONMember(key: (m.key.lowerBound + anchor)..<(m.key.upperBound + anchor),
                                value: (m.value.lowerBound + anchor)..<(m.value.upperBound + anchor))
      }
      return (entry.kind, entry.memberCount, entry.keyBits, entry.id == 0 ? nil : entry.id)
    }
    return nil
  }

  /// Keeps the layout of a line with `key` that the scan read in full and `find` did not
  /// know, unless it is beyond the limits; its id, if it has one.
  func remember(_ key: Key, members: UnsafeBufferPointer<JSONMember>, kind: EventKind, keyBits: UInt64) -> UInt64? {
    guard members.count <= Self.membersMax else { return nil }
    let home = Self.slot(key.hash)
    let slot = (0..<Self.probesMax).lazy.map { (home + $0) & (Self.slots - 1) }.first { self.entries[$0].keyCount == 0 } ?? home
    let layout = slot * Self.membersMax, anchor = key.anchor
    (keys + slot * Self.keyBytesMax).copyMemory(from: key.bytes.baseAddress!, byteCount: key.bytes.count)
    for (i, m) in members.enumerated() {
      assert(m.key.lowerBound >= anchor, "a member after the kind lies before it")
      layouts[layout + i] = JSONMember(key: (m.key.lowerBound - anchor)..<(m.key.upperBound - anchor),
                                       value: (m.value.lowerBound - anchor)..<(m.value.upperBound - anchor))
    }
    let id = idsExhausted ? nil : ids.id(of: key.bytes)
    if id == nil { idsExhausted = true }
    entries[slot] = Entry(keyCount: key.bytes.count, hash: key.hash, memberCount: members.count, kind: kind, keyBits: keyBits,
                          id: id ?? 0)
    return id
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
