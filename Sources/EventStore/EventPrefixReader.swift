/// Reads `{"seq":N,"t":T,"kind":"` line after line as `LogScanner.eventPrefix` does, with the
/// same answers, but guessing where each part lies from the line before.
///
/// Most lines of a log have a `seq` as long as the line before's and the same `t` (a few
/// lines in a hundred change the time). Read one part after the other, each number's end is
/// found before the next part can be read: a chain of dependent steps on every line. With the
/// lengths guessed, every part is loaded and checked at once, and `t` is compared, not
/// converted. A line that does not match the guess is read by `eventPrefix`, and its lengths
/// and time are the next guess.
struct EventPrefixReader {
  /// The digits of the last line's `seq` (0 while there is no guess; at most 8 are guessed).
  private var seqDigits = 0
  /// The digits of its `t` (at most 16 are guessed) and their bytes, as two masked words.
  private var timeDigits = 0
  private var timeWords: (UInt64, UInt64) = (0, 0)
  private var timeMasks: (UInt64, UInt64) = (0, 0)
  private var t: Int64 = 0

  /// `seq`, `t` and where the kind's text starts, as `LogScanner.eventPrefix(body)` says.
  mutating func read(_ body: UnsafeRawBufferPointer) -> (seq: Int64, t: Int64, kindStart: Int)? {
    if seqDigits > 0, let guessed = guess(body) { return guessed }
    guard let read = LogScanner.eventPrefix(body) else { return nil }
    learn(body, read)
    return read
  }

  /// The line read with the last line's lengths and time; nil when it does not match them.
  @inline(__always)
  private func guess(_ body: UnsafeRawBufferPointer) -> (seq: Int64, t: Int64, kindStart: Int)? {
    typealias Layout = EventPrefix.Layout
    let seqEnd = Layout.seqStart &+ seqDigits
    let timeStart = seqEnd &+ Layout.timeAfterSeq
    let timeEnd = timeStart &+ timeDigits
    let kindStart = timeEnd &+ Layout.kindAfterTime
    // Every word loaded below ends at or before `kindStart`: `timeEnd` is at least 14.
    guard let base = body.baseAddress, kindStart <= body.count else { return nil }
    let bytes = LineWords(base: base, count: body.count)
    let opening = (bytes.word(at: 0) ^ Layout.seqOpeningWord.word) & Layout.seqOpeningWord.mask
    let timeInfix = (bytes.word(at: seqEnd) ^ Layout.timeInfixWord.word) & Layout.timeInfixWord.mask
    let kindInfix = bytes.word(at: timeEnd) ^ Layout.kindInfixWord.word
    let quote = UInt64(base.load(fromByteOffset: kindStart &- 1, as: UInt8.self)) ^ 0x22
    var time = (bytes.word(at: timeStart) & timeMasks.0) ^ timeWords.0
    if timeDigits > 8 { time |= (bytes.word(at: timeStart &+ 8) & timeMasks.1) ^ timeWords.1 }
    guard opening | timeInfix | kindInfix | quote | time == 0,
          let seq = LineWords.digitsValue(bytes.word(at: Layout.seqStart), count: seqDigits) else { return nil }
    return (seq, t, kindStart)
  }

  /// Takes the lengths and time of a line `eventPrefix` read as the next guess (none when a
  /// number is longer than a guess covers).
  private mutating func learn(_ body: UnsafeRawBufferPointer, _ read: (seq: Int64, t: Int64, kindStart: Int)) {
    typealias Layout = EventPrefix.Layout
    var seqEnd = Layout.seqStart
    while body[seqEnd] &- UInt8(ascii: "0") < 10 { seqEnd &+= 1 }
    let timeStart = seqEnd &+ Layout.timeAfterSeq, timeEnd = read.kindStart &- Layout.kindAfterTime
    seqDigits = seqEnd &- Layout.seqStart
    timeDigits = timeEnd &- timeStart
    guard seqDigits <= 8, timeDigits <= 16 else { seqDigits = 0; return }
    let bytes = LineWords(base: body.baseAddress!, count: timeEnd)
    timeMasks = (LineWords.lowBytes(min(timeDigits, 8)), LineWords.lowBytes(max(timeDigits &- 8, 0)))
    timeWords = (bytes.word(at: timeStart) & timeMasks.0, timeDigits > 8 ? bytes.word(at: timeStart &+ 8) & timeMasks.1 : 0)
    t = read.t
  }
}

/// A line's bytes read eight at a time (zeros past the end). Offsets stay far below
/// `Int.max` (a line is at most `LogLimits.lineBytesMax`), so they are added unchecked.
struct LineWords {
  let base: UnsafeRawPointer
  let count: Int

  /// The eight bytes from `i`, the first in the lowest byte; zeros for those past the end.
  @inline(__always)
  func word(at i: Int) -> UInt64 {
    if i &+ 8 <= count { return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) }
    var word: UInt64 = 0
    var k = count - 1
    while k >= i {
      word = word << 8 | UInt64(base.load(fromByteOffset: k, as: UInt8.self))
      k -= 1
    }
    return word
  }

  /// Steps over the `count` bytes of `text` (a little-endian word, `mask` covering them) at `i`
  /// if the bytes there are exactly them.
  @inline(__always)
  func skip(_ text: (word: UInt64, mask: UInt64), count n: Int, at i: inout Int) -> Bool {
    guard i &+ n <= count, (word(at: i) ^ text.word) & text.mask == 0 else { return false }
    i &+= n
    return true
  }

  /// The decimal digits at `i`; nil if there are none or more than `LogLimits.integerDigitsMax`.
  @inline(__always)
  func integer(at i: inout Int) -> Int64? {
    var value: Int64 = 0
    let start = i
    while true {
      let (digits, n) = Self.leadingDigits(word(at: i))
      if n > 0 {
        value = value &* Self.tenToThe(n) &+ Self.sum(digits, count: n)
        i &+= n
      }
      if n < 8 || i &- start > LogLimits.integerDigitsMax { break }
    }
    let digitCount = i &- start
    return digitCount > 0 && digitCount <= LogLimits.integerDigitsMax ? value : nil
  }

  /// The value of the first `n` bytes of `word` (1 to 8) if all are decimal digits.
  @inline(__always)
  static func digitsValue(_ word: UInt64, count n: Int) -> Int64? {
    let (digits, leading) = leadingDigits(word)
    return leading >= n ? sum(digits, count: n) : nil
  }

  /// Each byte's digit value, and how many bytes from the first are digits.
  @inline(__always)
  private static func leadingDigits(_ word: UInt64) -> (digits: UInt64, count: Int) {
    let digits = word ^ 0x3030_3030_3030_3030
    // A byte that is not a digit gets its high bit set in `stops`.
    let stops = ((digits & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676 | digits) & 0x8080_8080_8080_8080
    return (digits, stops.trailingZeroBitCount >> 3)
  }

  /// The number the first `n` digit values of `digits` (1 to 8) write: moved to the top bytes
  /// (zeros before them), then summed in pairs, fours, eights.
  @inline(__always)
  private static func sum(_ digits: UInt64, count n: Int) -> Int64 {
    var v = digits &<< UInt64(truncatingIfNeeded: (8 &- n) &* 8)
    v = ((v &* 10) &+ (v >> 8)) & 0x00FF_00FF_00FF_00FF
    v = ((v &* 100) &+ (v >> 16)) & 0x0000_FFFF_0000_FFFF
    v = ((v &* 10000) &+ (v >> 32)) & 0x0000_0000_FFFF_FFFF
    return Int64(v)
  }

  /// A mask of the `n` low bytes of a word (0 to 8).
  static func lowBytes(_ n: Int) -> UInt64 {
    n >= 8 ? ~0 : (1 << UInt64(n &* 8)) &- 1
  }

  /// 10^n for n in 1...8 (a switch, not an array: no lazy global to check on each number).
  @inline(__always)
  private static func tenToThe(_ n: Int) -> Int64 {
    switch n {
    case 1: 10
    case 2: 100
    case 3: 1000
    case 4: 10000
    case 5: 100_000
    case 6: 1_000_000
    case 7: 10_000_000
    default: 100_000_000
    }
  }
}
