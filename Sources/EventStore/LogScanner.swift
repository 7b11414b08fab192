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
public final class LogScanner: EventLineSource {
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
  /// Whether every line's `h` is checked against the chain.
  let checksChain: Bool
  /// Set once `next()` has returned nil.
  @exclusivity(unchecked) public private(set) var ending: LogEnding?

  /// Where the scan is, in one value. Unchecked: a scanner is used from one thread at a time and
  /// `next()` is not reentrant, and the runtime's checks were a sixth of reading a line.
  @exclusivity(unchecked) private var cursor: Cursor

  /// Opens the log and reads and checks its header (its script hashes too). With
  /// `checksChain`, every line's `h` is checked too (`hash chain broken`).
  public init(path: String, checksChain: Bool = false) throws(LogProblem) {
    self.path = path
    self.checksChain = checksChain
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

  /// How a trailer line starts.
  static let trailerPrefix = Array("{\"kind\":\"end\"".utf8)

  /// The lines, the chain and the sequence so far.
  private struct Cursor: ~Copyable {
    enum Step { case event(EventLine), end(LogEnding) }

    var lines: LineSource
    var chain: HashChain?
    var lineNumber = 1
    var order = EventOrder()
    var prefixes = EventPrefixReader()

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
      guard let (seq, t, kindStart) = prefixes.read(body) else {
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

  static func starts(_ bytes: UnsafeRawBufferPointer, with prefix: [UInt8]) -> Bool {
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
    let bytes = LineWords(base: base, count: body.count)
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
}

/// What hands out a log's event lines one at a time, each valid until the next call:
/// `LogScanner` reads them on the caller's thread, `BackgroundLogScanner` ahead of it on a
/// thread of its own.
public protocol EventLineSource: AnyObject {
  /// The log's path, to name it in messages.
  var path: String { get }
  /// How the log ends, once `next()` has returned nil.
  var ending: LogEnding? { get }
  /// The next event; nil at the end of the log. A problem in the log is thrown once the
  /// events before it have been handed out.
  func next() throws(LogProblem) -> LogScanner.EventLine?
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
