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
  }

  public let path: String
  public let header: LogHeader
  /// Set once `next()` has returned nil.
  public private(set) var ending: LogEnding?

  /// Where the scan is, in one value: a line costs one exclusivity check, not one a property.
  private var cursor: Cursor

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
      guard bytes.count > LogReader.suffixCount, LogScanner.hasHashSuffix(bytes) else {
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
      guard let (seq, t, _) = LogScanner.eventPrefix(body) else {
        if LogScanner.starts(body, with: LogScanner.trailerPrefix) { return try readTrailer(body) }
        throw .damaged(line: lineNumber, reason: "an event must start with \"seq\", \"t\" and \"kind\"")
      }
      try order.accept(seq: seq, t: t, line: lineNumber)
      return .event(EventLine(seq: seq, t: t, bodyWithoutBrace: body))
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
        throw .damaged(line: lineNumber, reason: "not JSON (\(error.reason) at byte \(error.offset + 1))")
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
  static func hasHashSuffix(_ line: UnsafeRawBufferPointer) -> Bool {
    let s = line.count - LogReader.suffixCount
    return line[s] == UInt8(ascii: ",") && line[s + 1] == UInt8(ascii: "\"") && line[s + 2] == UInt8(ascii: "h")
      && line[s + 3] == UInt8(ascii: "\"") && line[s + 4] == UInt8(ascii: ":") && line[s + 5] == UInt8(ascii: "\"")
      && line[line.count - 2] == UInt8(ascii: "\"") && line[line.count - 1] == UInt8(ascii: "}")
  }

  /// `seq` and `t` from `{"seq":N,"t":T,"kind":"`, and where the kind's text starts; nil if
  /// the line does not start so.
  static func eventPrefix(_ body: UnsafeRawBufferPointer) -> (seq: Int64, t: Int64, kindStart: Int)? {
    guard let base = body.baseAddress else { return nil }
    var i = 0
    guard skip("{\"seq\":", in: base, count: body.count, at: &i), let seq = integer(in: base, count: body.count, at: &i),
          skip(",\"t\":", in: base, count: body.count, at: &i), let t = integer(in: base, count: body.count, at: &i),
          skip(",\"kind\":\"", in: base, count: body.count, at: &i) else {
      return nil
    }
    return (seq, t, i)
  }

  /// Steps over `text` at `i` if the bytes there are exactly it.
  @inline(__always)
  private static func skip(_ text: StaticString, in base: UnsafeRawPointer, count: Int, at i: inout Int) -> Bool {
    let n = text.utf8CodeUnitCount
    guard i + n <= count, memcmp(base + i, text.utf8Start, n) == 0 else { return false }
    i += n
    return true
  }

  /// The decimal digits at `i` (at most `LogLimits.integerDigitsMax` of them); nil if none.
  @inline(__always)
  private static func integer(in base: UnsafeRawPointer, count: Int, at i: inout Int) -> Int64? {
    var value: Int64 = 0, digits = 0
    while i < count, digits < LogLimits.integerDigitsMax {
      let digit = base.load(fromByteOffset: i, as: UInt8.self) &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      value = value * 10 + Int64(digit)
      i += 1
      digits += 1
    }
    return digits > 0 ? value : nil
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
