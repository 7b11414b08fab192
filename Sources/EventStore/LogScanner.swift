import JSON

/// Streams a log's events as raw canonical bytes, for comparing long logs fast (`diff`,
/// `replay --verify`).
///
/// It checks what a comparison relies on: the header, each line's form (an event with
/// `seq`, `t` and `kind` first and `h` last), `seq` without gaps, time never going back,
/// and the trailer's count; with `checksChain`, the hash chain too. It does not parse the
/// members (`LogReader` does). Lines are handed out in place, without a copy or an
/// allocation each.
///
/// ```swift
/// let scanner = try LogScanner(path: "run.lifelog")
/// while let event = try scanner.next() { … event.bodyWithoutBrace … }   // valid until the next call
/// print(scanner.ending!)
/// ```
public final class LogScanner {
  /// One event line, in place: valid until the next call to `next()`.
  public struct EventLine {
    public var seq: Int64
    public var t: Int64
    /// The line's canonical body without its closing brace: `{"seq":…,"t":…,"kind":…,…`.
    public var bodyWithoutBrace: UnsafeRawBufferPointer
    /// Where the kind's text starts in the body (after `,"kind":"`), when the scanner read it;
    /// so the members after `t` start 8 bytes before it.
    public var kindStart: Int? = nil
  }

  public let path: String
  public let header: LogHeader
  /// Set once `next()` has returned nil.
  @exclusivity(unchecked) public private(set) var ending: LogEnding?

  /// Where the scan is, in one value. Unchecked: a scanner is used from one thread at a time and
  /// `next()` is not reentrant, and the runtime's checks were a sixth of reading a line.
  @exclusivity(unchecked) private var cursor: Cursor

  /// Opens the log and reads and checks its header (its script hashes too). With
  /// `checksChain`, every line's `h` is checked too (`hash chain broken`).
  public init(path: String, checksChain: Bool = false) throws(LogProblem) {
    self.path = path
    var links = HashChain()
    var source = try LineSource.open(path)
    header = try LogReader.readHeader(from: &source, path: path, chain: &links)
    cursor = Cursor(lines: source, chain: checksChain ? links : nil)
  }

  /// The next event; nil at the end of the log (then `ending` says how it ends).
  public func next() throws(LogProblem) -> EventLine? {
    guard ending == nil else { return nil }
    switch try cursor.next() {
    case let .event(line): return line
    case let .end(how):
      ending = how
      return nil
    }
  }

  private static let trailerPrefix = Array("{\"kind\":\"end\"".utf8)

  /// The lines, the chain and the sequence so far.
  private struct Cursor: ~Copyable {
    enum Step { case event(EventLine), end(LogEnding) }

    var lines: LineSource
    var chain: HashChain?
    var lineNumber = 1
    var order = EventOrder()

    init(lines: consuming LineSource, chain: HashChain?) {
      self.lines = lines
      self.chain = chain
    }

    mutating func next() throws(LogProblem) -> Step {
      guard let line = try lines.next(number: lineNumber + 1) else { return finish(.cutOff(afterEvent: order.lastSeq)) }
      lineNumber += 1
      // A partial last line is what a killed writer leaves: the log is cut, not damaged.
      guard line.complete else { return finish(.cutOff(afterEvent: order.lastSeq)) }
      let bytes = line.bytes
      guard bytes.count > LogReader.suffixCount, LogScanner.hasHashSuffixFrame(bytes) else {
        throw .damaged(line: lineNumber, reason: "no hash \"h\" as the last member")
      }
      let body = UnsafeRawBufferPointer(rebasing: bytes[0..<(bytes.count - LogReader.suffixCount)])
      if chain != nil {
        let computed = chain!.link(body, then: UInt8(ascii: "}"))
        let recorded = bytes.baseAddress! + bytes.count - HashChain.hexBytes - 2
        guard computed.withUnsafeBytes({ memcmp($0.baseAddress!, recorded, HashChain.hexBytes) }) == 0 else {
          throw .damaged(line: lineNumber, reason: "hash chain broken")
        }
      }
      guard let (seq, t, kindStart) = LogScanner.eventPrefix(body) else {
        if LogScanner.starts(body, with: LogScanner.trailerPrefix) { return try readTrailer(body) }
        throw .damaged(line: lineNumber, reason: "an event must start with \"seq\", \"t\" and \"kind\"")
      }
      try order.accept(seq: seq, t: t, line: lineNumber)
      return .event(EventLine(seq: seq, t: t, bodyWithoutBrace: body, kindStart: kindStart))
    }

    private mutating func finish(_ how: LogEnding) -> Step {
      lines.close()
      return .end(how)
    }

    private mutating func readTrailer(_ bodyWithoutBrace: UnsafeRawBufferPointer) throws(LogProblem) -> Step {
      var body = Array(bodyWithoutBrace)
      body.append(UInt8(ascii: "}"))
      let parsed: JSONValue
      do { parsed = try JSONParser.parse(body) } catch {
        throw .notJSON(error, line: lineNumber)
      }
      let trailer = try LogReader.decodeTrailer(parsed, number: lineNumber)
      try order.checkTrailer(trailer, line: lineNumber)
      if try lines.next(number: lineNumber + 1) != nil { throw .damaged(line: lineNumber + 1, reason: "data after the trailer") }
      return finish(.complete(trailer))
    }
  }

  // MARK: - Form

  fileprivate static func starts(_ bytes: UnsafeRawBufferPointer, with prefix: [UInt8]) -> Bool {
    bytes.count >= prefix.count && memcmp(bytes.baseAddress!, prefix, prefix.count) == 0
  }

  /// `,"h":"` 64 characters from the end and `"}` at the end (the digits themselves are
  /// checked only with `checksChain`, against the chain).
  static func hasHashSuffixFrame(_ line: UnsafeRawBufferPointer) -> Bool {
    let s = line.count - LogReader.suffixCount
    return line[s] == UInt8(ascii: ",") && line[s + 1] == UInt8(ascii: "\"") && line[s + 2] == UInt8(ascii: "h")
      && line[s + 3] == UInt8(ascii: "\"") && line[s + 4] == UInt8(ascii: ":") && line[s + 5] == UInt8(ascii: "\"")
      && line[line.count - 2] == UInt8(ascii: "\"") && line[line.count - 1] == UInt8(ascii: "}")
  }

  /// `seq` and `t` from `{"seq":N,"t":T,"kind":"`, and where the kind's text starts; nil if
  /// the line does not start so (or a number has more than `LogLimits.integerDigitsMax` digits).
  /// Eight bytes at a time: the keys are compared as words, the digits converted in parallel.
  static func eventPrefix(_ body: UnsafeRawBufferPointer) -> (seq: Int64, t: Int64, kindStart: Int)? {
    guard let base = body.baseAddress else { return nil }
    let bytes = Words(base: base, count: body.count)
    var i = 0
    typealias Layout = EventPrefix.Layout
    guard bytes.skip(Layout.seqOpeningWord, count: Layout.seqStart, at: &i), let seq = bytes.integer(at: &i),
          bytes.skip(Layout.timeInfixWord, count: Layout.timeAfterSeq, at: &i), let t = bytes.integer(at: &i),
          bytes.skip(Layout.kindInfixWord, count: 8, at: &i),
          bytes.skip((0x22, 0xFF), count: Layout.kindAfterTime - 8, at: &i) else {
      return nil
    }
    return (seq, t, i)
  }

  /// A line's bytes read eight at a time (zeros past the end). Offsets stay far below
  /// `Int.max` (a line is at most `LogLimits.lineBytesMax`), so they are added unchecked.
  private struct Words {
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
        // Each byte's digit value; a byte that is not a digit gets its high bit set in `stops`.
        let digits = word(at: i) ^ 0x3030_3030_3030_3030
        let stops = ((digits & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676 | digits) & 0x8080_8080_8080_8080
        let n = stops.trailingZeroBitCount >> 3
        if n > 0 {
          // The n digits moved to the top bytes (zeros before them), then summed in pairs, fours, eights.
          var v = digits &<< UInt64(truncatingIfNeeded: (8 &- n) &* 8)
          v = ((v &* 10) &+ (v >> 8)) & 0x00FF_00FF_00FF_00FF
          v = ((v &* 100) &+ (v >> 16)) & 0x0000_FFFF_0000_FFFF
          v = ((v &* 10000) &+ (v >> 32)) & 0x0000_0000_FFFF_FFFF
          value = value &* Self.tenToThe(n) &+ Int64(v)
          i &+= n
        }
        if n < 8 || i &- start > LogLimits.integerDigitsMax { break }
      }
      let digitCount = i &- start
      return digitCount > 0 && digitCount <= LogLimits.integerDigitsMax ? value : nil
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
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
