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

  private var lines: LineSource
  private var lineNumber = 1
  private var order = EventOrder()
  /// The chain so far, when the scanner checks it.
  private var chain: HashChain?

  /// Opens the log and reads and checks its header (its script hashes too). With
  /// `checksChain`, every line's `h` is checked too (`hash chain broken`).
  public init(path: String, checksChain: Bool = false) throws(LogProblem) {
    self.path = path
    var links = HashChain()
    var source: LineSource
    switch POSIXFile.openForReading(path) {
    case let .success(fd): source = LineSource(fd: fd)
    case let .failure(err): throw .unreadable("\(path): cannot open: \(POSIXFile.describe(err.code))")
    }
    do throws(LogProblem) {
      guard let line = try source.next(number: 1) else { throw LogProblem.unreadable("\(path): empty file: not a lifesim log") }
      guard line.complete else { throw LogProblem.unreadable("\(path): cut off inside the header") }
      let body = try LogReader.checkedBody(Array(line.bytes), number: 1, chain: &links)
      header = try LogReader.decodeHeader(body)
    } catch {
      if case let .damaged(_, reason) = error { throw .unreadable("\(path): line 1: \(reason)") }
      throw error
    }
    lines = source
    chain = checksChain ? links : nil
  }

  /// The next event; nil at the end of the log (then `ending` says how it ends).
  public func next() throws(LogProblem) -> EventLine? {
    guard ending == nil else { return nil }
    guard let line = try lines.next(number: lineNumber + 1) else {
      finish(.cutOff(afterEvent: order.lastSeq))
      return nil
    }
    lineNumber += 1
    guard line.complete else {
      // A partial last line is what a killed writer leaves: the log is cut, not damaged.
      finish(.cutOff(afterEvent: order.lastSeq))
      return nil
    }
    let bytes = line.bytes
    guard bytes.count > Self.suffixBytes, Self.hasHashSuffix(bytes) else {
      throw .damaged(line: lineNumber, reason: "no hash \"h\" as the last member")
    }
    let body = UnsafeRawBufferPointer(rebasing: bytes[0..<(bytes.count - Self.suffixBytes)])
    if chain != nil {
      let computed = chain!.link(body, then: UInt8(ascii: "}"))
      let recorded = bytes.baseAddress! + bytes.count - HashChain.hexBytes - 2
      guard computed.withUnsafeBytes({ memcmp($0.baseAddress!, recorded, HashChain.hexBytes) }) == 0 else {
        throw .damaged(line: lineNumber, reason: "hash chain broken")
      }
    }
    guard let (seq, t) = Self.seqAndTime(body) else {
      if Self.starts(body, with: Self.trailerPrefix) {
        try readTrailer(body)
        return nil
      }
      throw .damaged(line: lineNumber, reason: "an event must start with \"seq\", \"t\" and \"kind\"")
    }
    try order.accept(seq: seq, t: t, line: lineNumber)
    return EventLine(seq: seq, t: t, bodyWithoutBrace: body)
  }

  // MARK: - Lines

  /// `,"h":"` + 64 hex digits + `"}`.
  static let suffixBytes = 72
  private static let trailerPrefix = Array("{\"kind\":\"end\"".utf8)

  private func finish(_ how: LogEnding) {
    ending = how
    lines.close()
  }

  private func readTrailer(_ bodyWithoutBrace: UnsafeRawBufferPointer) throws(LogProblem) {
    var body = Array(bodyWithoutBrace)
    body.append(UInt8(ascii: "}"))
    let parsed: JSONValue
    do { parsed = try JSONParser.parse(body) } catch {
      throw .damaged(line: lineNumber, reason: "not JSON (\(error.reason) at byte \(error.offset + 1))")
    }
    let trailer = try LogReader.decodeTrailer(parsed, number: lineNumber)
    try order.checkTrailer(trailer, line: lineNumber)
    if try lines.next(number: lineNumber + 1) != nil { throw .damaged(line: lineNumber + 1, reason: "data after the trailer") }
    finish(.complete(trailer))
  }

  // MARK: - Form

  private static func starts(_ bytes: UnsafeRawBufferPointer, with prefix: [UInt8]) -> Bool {
    bytes.count >= prefix.count && memcmp(bytes.baseAddress!, prefix, prefix.count) == 0
  }

  /// `,"h":"` 64 characters from the end and `"}` at the end (the digits themselves are
  /// checked only with `checksChain`, against the chain).
  private static func hasHashSuffix(_ line: UnsafeRawBufferPointer) -> Bool {
    let s = line.count - suffixBytes
    return line[s] == UInt8(ascii: ",") && line[s + 1] == UInt8(ascii: "\"") && line[s + 2] == UInt8(ascii: "h")
      && line[s + 3] == UInt8(ascii: "\"") && line[s + 4] == UInt8(ascii: ":") && line[s + 5] == UInt8(ascii: "\"")
      && line[line.count - 2] == UInt8(ascii: "\"") && line[line.count - 1] == UInt8(ascii: "}")
  }

  /// `seq` and `t` from `{"seq":N,"t":T,"kind":"`; nil if the line does not start so.
  private static func seqAndTime(_ body: UnsafeRawBufferPointer) -> (Int64, Int64)? {
    var i = 0
    func expect(_ text: StaticString) -> Bool {
      let n = text.utf8CodeUnitCount
      guard i + n <= body.count else { return false }
      let p = text.utf8Start
      for k in 0..<n where body[i + k] != p[k] { return false }
      i += n
      return true
    }
    func integer() -> Int64? {
      var v: Int64 = 0, digits = 0
      while i < body.count, body[i] >= 0x30, body[i] <= 0x39, digits < 18 {
        v = v * 10 + Int64(body[i] - 0x30); i += 1; digits += 1
      }
      return digits > 0 ? v : nil
    }
    guard expect("{\"seq\":"), let seq = integer(), expect(",\"t\":"), let t = integer(), expect(",\"kind\":\"") else {
      return nil
    }
    return (seq, t)
  }
}

/// A file read in large chunks and cut into lines in place (no copy, no allocation a line).
private struct LineSource: ~Copyable {
  struct Line {
    var bytes: UnsafeRawBufferPointer
    /// False for a last line with no newline (a cut write).
    var complete: Bool
  }

  private var fd: Int32
  private var buffer: UnsafeMutableRawPointer
  private var capacity = LogReader.chunkBytes
  /// `buffer[start..<end]` holds bytes read and not yet handed out.
  private var start = 0
  private var end = 0
  private var eof = false

  init(fd: Int32) {
    self.fd = fd
    buffer = .allocate(byteCount: capacity, alignment: 1)
  }

  deinit {
    if fd >= 0 { POSIXFile.close(fd) }
    buffer.deallocate()
  }

  mutating func close() {
    if fd >= 0 { POSIXFile.close(fd); fd = -1 }
    eof = true
    start = end
  }

  /// The next line without its newline, valid until the next call; nil at the end of the
  /// file. `number` names the line in errors.
  mutating func next(number: Int) throws(LogProblem) -> Line? {
    var scanned = start
    while true {
      if scanned < end, let nl = memchr(buffer + scanned, 0x0A, end - scanned) {
        let at = buffer.distance(to: nl)
        let line = UnsafeRawBufferPointer(start: buffer + start, count: at - start)
        start = at + 1
        return Line(bytes: line, complete: true)
      }
      scanned = end
      if end - start > LogReader.lineBytesMax {
        throw .damaged(line: number, reason: "longer than \(LogReader.lineBytesMax >> 20) MiB")
      }
      if eof {
        guard start < end else { return nil }
        let line = UnsafeRawBufferPointer(start: buffer + start, count: end - start)
        start = end
        return Line(bytes: line, complete: false)
      }
      // Keep the unscanned tail at the front, make room, read more.
      let kept = end - start
      if start > 0 {
        buffer.copyMemory(from: buffer + start, byteCount: kept)
        scanned -= start
        start = 0
        end = kept
      }
      if capacity - end < LogReader.chunkBytes / 2 {
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 1)
        bigger.copyMemory(from: buffer, byteCount: end)
        buffer.deallocate()
        buffer = bigger
        capacity *= 2
      }
      switch POSIXFile.read(fd, into: buffer + end, count: capacity - end) {
      case let .success(n):
        if n == 0 { eof = true }
        end += n
      case let .failure(err):
        throw .damaged(line: number, reason: "read failed: \(POSIXFile.describe(err.code))")
      }
    }
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
