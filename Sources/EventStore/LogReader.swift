import JSON

/// What is wrong with a log, and where. The descriptions are the exact
/// messages users see (`line 1042: hash chain broken`).
public enum LogProblem: Error, Equatable, CustomStringConvertible, Sendable {
  /// The file cannot be used as a log at all (missing, empty, not a lifelog, newer format).
  case unreadable(String)
  /// Line `line` is damaged; nothing at or after it is trusted.
  case damaged(line: Int, reason: String)

  public var description: String {
    switch self {
    case let .unreadable(reason): return reason
    case let .damaged(line, reason): return "line \(line): \(reason)"
    }
  }

  /// Line `line` is not JSON (`verify`'s words: `not JSON (duplicate key "kind" at byte 40)`).
  static func notJSON(_ failure: JSONParser.Failure, line: Int) -> LogProblem {
    .damaged(line: line, reason: "not JSON (\(failure.reason) at byte \(failure.offset + 1))")
  }

  /// Line `line` names a kind of event no log holds.
  static func unknownKind(_ kind: String, line: Int) -> LogProblem {
    .damaged(line: line, reason: "unknown event kind \"\(kind)\"")
  }

  /// What `verify` reports of an event line whose body (`h` excluded) is not JSON or names no kind
  /// of event, on its line (event N is line N + 1: the scanners checked the numbering); nil when
  /// it is neither, or does not start as an event line does. For readers that compare a line's
  /// bytes without parsing it (`replay --verify`, `diff`): a line that differs may be damage
  /// rather than a divergence.
  public static func damage(ofEvent body: [UInt8]) -> LogProblem? {
    // seq ≤ LogLimits.integerMax: Int(seq) + 1 cannot overflow.
    guard let line = body.withUnsafeBytes({ LogScanner.eventPrefix($0).map { Int($0.seq) + 1 } }) else { return nil }
    let parsed: JSONValue
    do { parsed = try JSONParser.parse(body) } catch { return notJSON(error, line: line) }
    guard let kind = parsed["kind"]?.stringValue, EventKind(rawValue: kind) != nil else {
      return unknownKind(parsed["kind"]?.stringValue ?? "", line: line)
    }
    return nil
  }
}

/// One line of a log, as the reader yields it.
public enum LogLine: Equatable, Sendable {
  case event(LogEvent)
  case trailer(LogTrailer)
}

/// How a log that was read to its end ends.
public enum LogEnding: Equatable, Sendable {
  /// A trailer closes the log.
  case complete(LogTrailer)
  /// No trailer: the writer stopped after event `afterEvent` (0: after the header).
  case cutOff(afterEvent: Int64)

  public var description: String {
    switch self {
    case let .complete(trailer): return Self.intactMessage(events: trailer.events)
    case let .cutOff(n): return Self.cutOffMessage(afterEvent: n)
    }
  }

  /// The exact words for a complete log (`lifesim verify` prints them).
  static func intactMessage(events: Int64) -> String { "intact and complete: \(events) events" }
  /// The exact words for a log with no trailer.
  static func cutOffMessage(afterEvent n: Int64) -> String { "cut off after event \(n) (no trailer)" }

  /// The last event of a log with no trailer; nil for a complete log.
  public var cutOffAfter: Int64? {
    if case let .cutOff(n) = self { return n }
    return nil
  }

  /// Why a command that needs a whole run (`replay`, `diff`) is trouble on a log with no trailer
  /// (a run killed by the OOM killer or a CI timeout): what happened after the cut is unknown.
  public static func noTrailerMessage(afterEvent n: Int64) -> String { "the log ends without a trailer after event \(n)" }
}

/// Streams a log line by line in constant memory, checking format, sequence,
/// time order and the hash chain as it goes.
///
/// ```swift
/// let reader = try LogReader(path: "run.lifelog")
/// while let line = try reader.next() { … }
/// print(reader.ending!)   // complete, or cut off after event N
/// ```
/// The first damaged line throws; no line after it is ever yielded.
public final class LogReader {
  /// What `next()` builds for each event.
  public enum Mode: Sendable {
    /// Every member parsed into `LogEvent.fields` (replay, diff, export).
    case full
    /// Integrity only: format, sequence, time, chain; `fields` stays empty (verify).
    case integrity
    /// As `integrity`, and the members of each event are located so that `lastView` can
    /// parse just those a reader asks for (`fields` stays empty): folding and exporting.
    case inPlace
  }

  /// Bytes a sequential reader reads at a time. A quarter of a MiB: `diff` reads two logs at
  /// once, and two chunks of a MiB each no longer fit beside the rest of its work in a core's
  /// L2 cache; at a quarter it took 0.93 of the time in pairs, and an eighth gained less.
  static let chunkBytes = 1 << 18

  public let path: String
  public let header: LogHeader
  /// Set once `next()` has returned nil.
  public private(set) var ending: LogEnding?
  /// The number of the line `next()` read last (the header is line 1).
  public private(set) var lineNumber = 1

  private var lines: LineSource
  private var chain = HashChain()
  private var order = EventOrder()
  /// The trailer, once read: only the end of the file may follow it.
  private var trailer: LogTrailer?
  private let mode: Mode
  /// The line being checked, without its `h` (reused: no allocation per line).
  private var scratch: [UInt8] = []
  private var keyScratch: [Range<Int>] = []
  private var members: [JSONMember] = []
  private var lastEvent = LogEvent(seq: 0, t: 0, kind: .note, fields: [])

  /// The canonical body (the line without `h`) of the line `next()` returned last:
  /// byte-exact comparisons need no parsing.
  public var lastBody: [UInt8] { scratch }

  /// The event `next()` returned last, read in place (`.inPlace` mode only).
  public var lastView: LogEventView {
    precondition(mode == .inPlace, "lastView needs a reader opened in .inPlace mode")
    return LogEventView(seq: lastEvent.seq, t: lastEvent.t, kind: lastEvent.kind, body: scratch, members: members)
  }

  /// Opens the log and reads and checks its header.
  public init(path: String, mode: Mode = .full) throws(LogProblem) {
    self.path = path
    self.mode = mode
    var source = try LineSource.open(path)
    header = try Self.readHeader(from: &source, path: path, chain: &chain)
    lines = source
  }

  /// Reads and checks a log's first line, its header (the scripts' hashes too), linking it onto
  /// `chain`. Every problem there makes the file unreadable as a log, and names it.
  static func readHeader(from source: inout LineSource, path: String, chain: inout HashChain) throws(LogProblem) -> LogHeader {
    do throws(LogProblem) {
      guard let raw = try source.next(number: 1) else {
        throw LogProblem.unreadable("\(path): empty file: not a lifesim log")
      }
      if path.hasSuffix(".lua"), raw.bytes.first != UInt8(ascii: "{") {
        throw LogProblem.unreadable("\(path): this is a Lua script, not a lifesim log; did you mean `lifesim run \(path)`?")
      }
      guard raw.complete else { throw LogProblem.unreadable("\(path): cut off inside the header") }
      let body = try checkedBody(Array(raw.bytes), number: 1, chain: &chain)
      return try decodeHeader(body)
    } catch {
      if case let .damaged(_, reason) = error { throw .unreadable("\(path): line 1: \(reason)") }
      throw error
    }
  }

  /// The next event or the trailer; nil at the end (then `ending` says how it ends).
  public func next() throws(LogProblem) -> LogLine? {
    if ending != nil { return nil }
    let number = lineNumber + 1
    guard let raw = try lines.next(number: number) else {
      ending = trailer.map { .complete($0) } ?? .cutOff(afterEvent: order.lastSeq)
      close()
      return nil
    }
    lineNumber = number
    if trailer != nil { throw .damaged(line: number, reason: "data after the trailer") }
    guard raw.complete else {
      // A partial last line is what a killed writer leaves: the log is cut, not damaged.
      ending = .cutOff(afterEvent: order.lastSeq)
      close()
      return nil
    }
    let line = Array(raw.bytes)
    if mode != .full, let fast = try integrityOnly(line, number: number) {
      lastEvent = fast
      return .event(fast)
    }
    let body = try Self.checkedBody(line, number: number, chain: &chain)
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: line[0..<(line.count - Self.suffixCount)])
    scratch.append(UInt8(ascii: "}"))
    guard case let .object(members) = body else { throw .damaged(line: number, reason: "not a JSON object") }
    guard let kindText = body["kind"]?.stringValue else { throw .damaged(line: number, reason: "no \"kind\"") }
    if kindText == "end" {
      let trailer = try Self.decodeTrailer(body, number: number)
      try order.checkTrailer(trailer, line: number)
      // Not yet the end: the line after the trailer, if any, is damage.
      self.trailer = trailer
      return .trailer(trailer)
    }
    guard members.count >= 3, members[0].0 == "seq", members[1].0 == "t", members[2].0 == "kind",
          let seq = members[0].1.intValue, let t = members[1].1.intValue else {
      throw .damaged(line: number, reason: "an event must start with \"seq\", \"t\" and \"kind\"")
    }
    let kind = try accept(seq: seq, t: t, kind: kindText, number: number)
    return .event(LogEvent(seq: seq, t: t, kind: kind, fields: Array(members[3...])))
  }

  /// Checks an event's kind, its place in the sequence and its time, then advances past it.
  private func accept(seq: Int64, t: Int64, kind kindText: String, number: Int) throws(LogProblem) -> EventKind {
    guard let kind = EventKind(rawValue: kindText) else {
      throw .unknownKind(kindText, line: number)
    }
    try order.accept(seq: seq, t: t, line: number)
    return kind
  }

  /// The verify path: checks the chain, validates the JSON without building it, and reads
  /// `seq`, `t` and `kind` from the canonical prefix. nil: not an event line (the trailer).
  private func integrityOnly(_ line: [UInt8], number: Int) throws(LogProblem) -> LogEvent? {
    // Not an event line (the trailer, or damage the full path names): leave it to the full path.
    guard line.starts(with: EventPrefix.Layout.seqOpening) else { return nil }
    // A broken link throws, and a reader that threw is finished: the chain may advance now.
    let bodyCount = try Self.chainedBodyCount(line, number: number, chain: &chain)
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: line[0..<bodyCount])
    scratch.append(UInt8(ascii: "}"))
    do {
      try scratch.withUnsafeBufferPointer { buf throws(JSONParser.Failure) in
        try JSONParser.validate(buf, scratch: &keyScratch, members: &members, recording: mode == .inPlace)
      }
    } catch {
      throw .notJSON(error, line: number)
    }
    // {"seq":N,"t":T,"kind":"K", …
    var i = EventPrefix.Layout.seqStart
    func integer() -> Int64? {
      var v: Int64 = 0, digits = 0
      while i < bodyCount, line[i] >= 0x30, line[i] <= 0x39, digits < LogLimits.integerDigitsMax {
        v = v * 10 + Int64(line[i] - 0x30); i += 1; digits += 1
      }
      return digits > 0 ? v : nil
    }
    func expect(_ t: [UInt8]) -> Bool {
      guard i + t.count <= bodyCount, line[i..<(i + t.count)].elementsEqual(t) else { return false }
      i += t.count
      return true
    }
    guard let seq = integer(), expect(EventPrefix.Layout.timeInfix), let t = integer(), expect(EventPrefix.Layout.kindInfix) else {
      throw .damaged(line: number, reason: "an event must start with \"seq\", \"t\" and \"kind\"")
    }
    let kindStart = i
    while i < bodyCount, line[i] != UInt8(ascii: "\"") { i += 1 }
    let kind = try accept(seq: seq, t: t, kind: String(decoding: line[kindStart..<i], as: UTF8.self), number: number)
    return LogEvent(seq: seq, t: t, kind: kind, fields: [])
  }

  private func close() { lines.close() }

  /// Reads every remaining line and returns how the log ends (for `verify`).
  public func drain() throws(LogProblem) -> LogEnding {
    while try next() != nil {}
    return ending!
  }

  // MARK: - Lines

  /// The bytes after a line's body: `,"h":"` + 64 hex digits + `"}`.
  static let suffixCount = 72

  /// `line[at..<at+64] == digest`, with `memcmp`.
  static func equal(_ line: [UInt8], _ at: Int, _ digest: [UInt8]) -> Bool {
    guard at + digest.count <= line.count else { return false }
    return line.withUnsafeBytes { l in digest.withUnsafeBytes { d in memcmp(l.baseAddress! + at, d.baseAddress!, d.count) == 0 } }
  }

  /// Splits off `h`, checks it against the chain, and parses the body.
  /// Checks a line's form (LF, a trailing `h`) and links it onto the chain; returns the body's length
  /// without `h` (the body is `line[..<count]` followed by `}`).
  static func chainedBodyCount(_ line: [UInt8], number: Int, chain: inout HashChain) throws(LogProblem) -> Int {
    if line.last == 0x0D { throw .damaged(line: number, reason: "CRLF line end (a log uses LF only)") }
    guard hasLowercaseHexHashSuffix(line) else {
      do { _ = try JSONParser.parse(line) } catch {
        throw .notJSON(error, line: number)
      }
      throw .damaged(line: number, reason: "no hash \"h\" as the last member")
    }
    let bodyCount = line.count - suffixCount
    let computed = line.withUnsafeBytes { chain.link(UnsafeRawBufferPointer(rebasing: $0[0..<bodyCount]), then: UInt8(ascii: "}")) }
    guard Self.equal(line, bodyCount + 6, computed) else { throw .damaged(line: number, reason: "hash chain broken") }
    return bodyCount
  }

  /// Checks the line against the chain and parses its body.
  static func checkedBody(_ line: [UInt8], number: Int, chain: inout HashChain) throws(LogProblem) -> JSONValue {
    let bodyCount = try chainedBodyCount(line, number: number, chain: &chain)
    var body = Array(line[0..<bodyCount])
    body.append(UInt8(ascii: "}"))
    do {
      return try JSONParser.parse(body)
    } catch {
      throw .notJSON(error, line: number)
    }
  }

  /// `,"h":"`, 64 lowercase hex digits and `"}` at the end of `line` (`LogScanner.hasHashSuffixFrame`
  /// checks only the frame around the digits).
  static func hasLowercaseHexHashSuffix(_ line: [UInt8]) -> Bool {
    guard line.count > suffixCount, line.last == UInt8(ascii: "}") else { return false }
    let s = line.count - suffixCount
    guard equal(line, s, LogWriter.hashPrefix), line[line.count - 2] == UInt8(ascii: "\"") else { return false }
    return line.withUnsafeBytes { raw in
      for i in (s + 6)..<(raw.count - 2) {
        let c = raw[i]
        guard (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) else { return false }
      }
      return true
    }
  }

  // MARK: - Header and trailer

  static func decodeHeader(_ body: JSONValue) throws(LogProblem) -> LogHeader {
    func need<T>(_ key: String, _ get: (JSONValue) -> T?) throws(LogProblem) -> T {
      guard let v = body[key], let t = get(v) else {
        throw .damaged(line: 1, reason: "header: missing or malformed \"\(key)\"")
      }
      return t
    }
    guard body["kind"]?.stringValue == "header" else {
      throw .damaged(line: 1, reason: "not a lifesim log (no header line)")
    }
    let format = try need("format") { $0.intValue }
    guard format <= logFormatVersion, format >= 1 else {
      throw .damaged(line: 1, reason: "unsupported format version \(format) (this lifesim reads version \(logFormatVersion))")
    }
    var scripts: [EmbeddedScript] = []
    for item in try need("scripts", { $0.arrayValue }) {
      guard let role = item["role"]?.stringValue, let path = item["path"]?.stringValue,
            let sha = item["sha256"]?.stringValue, let source = item["source"]?.stringValue else {
        throw .damaged(line: 1, reason: "header: malformed script entry")
      }
      guard HashChain.hex(of: Array(source.utf8)) == sha else {
        throw .damaged(line: 1, reason: "header: script \(path) does not match its sha256")
      }
      scripts.append(EmbeddedScript(role: role, path: path, sha256: sha, source: source))
    }
    let header = LogHeader(format: format, lifesim: try need("lifesim") { $0.stringValue },
                           lua: try need("lua") { $0.stringValue }, profile: try need("profile") { $0 },
                           scenes: try need("scenes") { $0.boolValue }, seed: try need("seed") { $0.intValue },
                           scripts: scripts)
    return header
  }

  static func decodeTrailer(_ body: JSONValue, number: Int) throws(LogProblem) -> LogTrailer {
    guard let events = body["events"]?.intValue, let t = body["t"]?.intValue, let outcome = body["outcome"] else {
      throw .damaged(line: number, reason: "malformed trailer")
    }
    return LogTrailer(events: events, t: t, outcome: outcome)
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
