import JSON

/// Where the JSON check of an event line goes on after `{"seq":N,"t":T,"kind":"K"`, which
/// `LineRules` has checked: offsets from the line's start. The layout's texts are
/// `EventPrefix.Layout`, the one definition the readers share.
struct EventPrefix {
  /// The key `seq`, always here.
  static let seqKey = 2
  /// The key `t`.
  var tKey: Int32
  /// The key `kind`.
  var kindKey: Int32
  /// Just after the kind's closing quote.
  var rest: Int32

  /// The prefix of a line whose `seq` digits end at `seqEnd` and whose kind starts at
  /// `kindStart` and ends (at its closing quote) at `kindEnd`.
  /// (`kindAfterTime`, not `kindInfix.count`: each read of an array constant is a call to see
  /// that it was made, on every event line.)
  @inline(__always)
  init(seqEnd: Int, kindStart: Int, kindEnd: Int) {
    tKey = Int32(seqEnd + Layout.keyInInfix)
    kindKey = Int32(kindStart - Layout.kindAfterTime + Layout.keyInInfix)
    rest = Int32(kindEnd + 1)
  }

  init(tKey: Int32, kindKey: Int32, rest: Int32) {
    self.tKey = tKey; self.kindKey = kindKey; self.rest = rest
  }

  /// The keys `seq`, `t` and `kind`: where each starts, and its length.
  var keys: ((offset: Int, length: Int), (offset: Int, length: Int), (offset: Int, length: Int)) {
    ((Self.seqKey, 3), (Int(tKey), 1), (Int(kindKey), 4))
  }

  /// The members `seq`, `t` and `kind`: keys without quotes, values as written.
  @inline(__always)
  var members: (JSONMember, JSONMember, JSONMember) {
    let ((seqKey, seqLength), (tKey, tLength), (kindKey, kindLength)) = keys
    return (JSONMember(key: seqKey..<(seqKey + seqLength), value: (seqKey + seqLength + 2)..<(tKey - Layout.keyInInfix)),
            JSONMember(key: tKey..<(tKey + tLength), value: (tKey + tLength + 2)..<(kindKey - Layout.keyInInfix)),
            JSONMember(key: kindKey..<(kindKey + kindLength), value: kindValueStart..<Int(rest)))
  }

  /// Where the kind's value starts (its opening quote).
  var kindValueStart: Int { Int(kindKey) + 4 + 2 }

  /// The texts an event line starts with, `{"seq":N,"t":T,"kind":"K"` (docs/log-format.md):
  /// every reader takes its offsets from here.
  enum Layout {
    /// `{"seq":`, before the sequence number.
    static let seqOpening = Array(#"{"seq":"#.utf8)
    /// `,"t":`, between the sequence number and the time.
    static let timeInfix = Array(#","t":"#.utf8)
    /// `,"kind":"`, between the time and the kind's text.
    static let kindInfix = Array(#","kind":""#.utf8)
    /// Where the sequence number starts.
    static let seqStart = 7
    /// Where a key's text starts in its infix (after `,"`).
    static let keyInInfix = 2
    /// The time's digits start this far after the sequence number's end.
    static let timeAfterSeq = 5
    /// The kind's text starts this far after the time's end.
    static let kindAfterTime = 9

    /// `seqOpening`, `timeInfix` and `kindInfix` as little-endian words (`kindInfix`'s first
    /// eight bytes and its quote), each with the mask of its length, for `LogScanner`'s
    /// word-at-a-time read. `EventPrefixTests` holds them equal to the texts.
    static let seqOpeningWord: (word: UInt64, mask: UInt64) = (0x3A22_7165_7322_7B, 0xFF_FFFF_FFFF_FFFF)
    static let timeInfixWord: (word: UInt64, mask: UInt64) = (0x3A_2274_222C, 0xFF_FFFF_FFFF)
    static let kindInfixWord: (word: UInt64, mask: UInt64) = (0x3A22_646E_696B_222C, ~0)
  }
}
