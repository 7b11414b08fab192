import JSON

/// Why a log could not be written. Every message names the file.
public enum LogWriteError: Error, Equatable, CustomStringConvertible {
  case exists(path: String)
  case locked(path: String)
  case io(path: String, operation: String, reason: String)
  case finished(path: String)
  /// The event does not fit the log format (`LogLimits`); nothing of it was written, and the
  /// log can still take its trailer.
  case outOfLimits(path: String, reason: String)

  public var description: String {
    switch self {
    case let .exists(path):
      return "\(path): already exists; refusing to overwrite it (pass --force to replace it)"
    case let .locked(path):
      return "\(path): another lifesim process is writing this log; refusing to write it too"
    case let .io(path, operation, reason):
      return "\(path): \(operation) failed: \(reason)"
    case let .finished(path):
      return "\(path): the log already has its trailer; nothing more can be appended"
    case let .outOfLimits(path, reason):
      return "\(path): \(reason); the event was not written"
    }
  }
}

/// Appends a hash-chained log: header, events, trailer (docs/log-format.md).
///
/// Holds an exclusive `flock` on the file for its whole life, so a second
/// writer is refused and the first is unharmed. Lines are buffered and written
/// whole, in order, so a process killed at any instant leaves whole lines plus
/// at most one partial last line. `fsync` runs at the trailer and, if asked,
/// every `syncEveryEvents` events.
public final class LogWriter {
  public struct Options: Sendable {
    /// Replace an existing file (the CLI's `--force`). Off: an existing path is refused.
    public var overwrite: Bool
    /// `fsync` after this many events; 0: only at the trailer.
    public var syncEveryEvents: Int
    /// Bytes buffered before a `write`.
    public var bufferBytes: Int

    public init(overwrite: Bool = false, syncEveryEvents: Int = 0, bufferBytes: Int = 1 << 16) {
      self.overwrite = overwrite
      self.syncEveryEvents = syncEveryEvents
      self.bufferBytes = max(bufferBytes, 0)
    }
  }

  public let path: String
  private let options: Options
  private var fd: Int32
  private var lines: LineBuilder
  private var sinceSync = 0
  /// Bytes handed to the kernel so far, and how many of them it was asked to start writing to
  /// the disk (`startWriteback`).
  private var bytesWritten = 0, writebackRequested = 0
  /// How far the data handed to the kernel may run ahead of the disk before the kernel is
  /// asked to start writing it: the closing `fsync` of a long run otherwise waited for the
  /// whole log (0.12 s of 0.75 s for 185 MB), while the run could have overlapped it.
  static let writebackBytes = 8 << 20
  /// The `seq` of the last event appended.
  public var lastSeq: Int64 { lines.lastSeq }
  /// The virtual time of the last event appended, µs.
  public var lastTime: Int64 { lines.lastTime }
  /// The highest `seq` handed to the kernel by `write` (survives a kill of this process).
  public private(set) var writtenSeq: Int64 = 0
  private var finished = false

  /// Creates the file, locks it and writes the header.
  public init(path: String, header: LogHeader, options: Options = Options()) throws(LogWriteError) {
    self.path = path
    self.options = options
    let fd: Int32
    switch POSIXFile.openForWriting(path, exclusive: !options.overwrite) {
    case let .success(f): fd = f
    case let .failure(err):
      let code = err.code
      if code == EEXIST { throw .exists(path: path) }
      throw .io(path: path, operation: "open", reason: POSIXFile.describe(code))
    }
    if let code = POSIXFile.lockExclusive(fd) {
      POSIXFile.close(fd)
      if code == EWOULDBLOCK { throw .locked(path: path) }
      throw .io(path: path, operation: "lock", reason: POSIXFile.describe(code))
    }
    if let code = POSIXFile.truncate(fd) {
      POSIXFile.close(fd)
      throw .io(path: path, operation: "truncate", reason: POSIXFile.describe(code))
    }
    self.fd = fd
    lines = LineBuilder(bufferBytes: options.bufferBytes + 4096)
    lines.line { header.encode(into: &$0) }
    try flush()
  }

  deinit {
    if fd >= 0 {
      _ = try? flush()
      POSIXFile.close(fd)
    }
  }

  /// Appends one event: `seq` and `t` are written first, then `fields` adds the kind's members.
  @discardableResult
  public func append(t: Int64, kind: EventKind, fields: (inout CanonicalJSONWriter) -> Void) throws(LogWriteError) -> Int64 {
    guard !finished else { throw .finished(path: path) }
    let seq: Int64
    switch lines.event(t: t, kind: kind, fields: fields) {
    case let .success(s): seq = s
    case let .failure(reason): throw .outOfLimits(path: path, reason: reason.text)
    }
    if lines.buffer.count >= options.bufferBytes { try flush() }
    if options.syncEveryEvents > 0 {
      sinceSync += 1
      if sinceSync >= options.syncEveryEvents { try sync() }
    }
    return seq
  }

  /// Appends the events of a batch of `EventFrame`s (`BackgroundLogWriter`'s), each followed
  /// by a newline; the last of them has `lastSeq` and `lastTime`.
  func appendFramed(_ all: UnsafeRawBufferPointer, lastSeq: Int64, lastTime: Int64) throws(LogWriteError) {
    guard !finished else { throw .finished(path: path) }
    precondition(options.syncEveryEvents == 0, "a background writer does not sync every N events")
    var start = 0
    while start < all.count {
      let fields = start + EventFrame.headerBytes
      precondition(fields < all.count, "a batch must end with a whole event")
      let (t, kind) = EventFrame.read(all.baseAddress! + start)
      guard let newline = memchr(all.baseAddress! + fields, 0x0A, all.count - fields) else {
        preconditionFailure("a batch must end with a newline")
      }
      let end = all.baseAddress!.distance(to: UnsafeRawPointer(newline))
      lines.seal(t: t, kind: kind, fields: UnsafeRawBufferPointer(rebasing: all[fields..<end]))
      start = end + 1
      if lines.buffer.count >= options.bufferBytes { try flush() }
    }
    precondition(lines.lastSeq == lastSeq && lines.lastTime == lastTime, "a batch lost or gained events")
  }

  /// Appends a generic event (its `seq` is assigned here).
  @discardableResult
  public func append(_ event: LogEvent) throws(LogWriteError) -> Int64 {
    try append(t: event.t, kind: event.kind) { w in
      for (k, v) in event.fields { w.member(k, v) }
    }
  }

  /// Writes the trailer, flushes and `fsync`s, and releases the file.
  public func finish(outcome: JSONValue) throws(LogWriteError) {
    guard !finished else { throw .finished(path: path) }
    let trailer = LogTrailer(events: lastSeq, t: lastTime, outcome: outcome)
    lines.line { trailer.encode(into: &$0) }
    finished = true
    try sync()
    POSIXFile.close(fd)
    fd = -1
  }

  /// Hands every buffered line to the kernel.
  public func flush() throws(LogWriteError) {
    guard lines.buffer.count > 0 else { return }
    let failure = lines.buffer.withBytes { POSIXFile.writeAll(fd, $0) }
    if let code = failure { throw .io(path: path, operation: "write", reason: POSIXFile.describe(code)) }
    bytesWritten += lines.buffer.count
    lines.buffer.removeAll()
    writtenSeq = lastSeq
    if bytesWritten - writebackRequested >= Self.writebackBytes {
      POSIXFile.startWriteback(fd, offset: writebackRequested, count: bytesWritten - writebackRequested)
      writebackRequested = bytesWritten
    }
  }

  /// Flushes and forces the data to disk.
  public func sync() throws(LogWriteError) {
    try flush()
    sinceSync = 0
    if let code = POSIXFile.sync(fd) { throw .io(path: path, operation: "fsync", reason: POSIXFile.describe(code)) }
  }

  static let hashPrefix: [UInt8] = Array(",\"h\":\"".utf8)
}

/// An event that `LogLimits` refuses, in words.
struct LimitProblem: Error {
  let text: String
}

/// The writer's hot state in one value, so that appending an event costs one exclusivity
/// check on `LogWriter` rather than one per property: encodes a body, chains it, and adds
/// the finished line (with its `h`) to `buffer`.
struct LineBuilder: ~Copyable {
  /// Finished lines, not yet handed to the kernel (bytes between complete values, `verbatim`).
  var buffer: CanonicalJSONWriter
  private var scratch = CanonicalJSONWriter(capacity: 512)
  private var chain = HashChain()
  private(set) var lastSeq: Int64 = 0
  private(set) var lastTime: Int64 = 0
  /// The opening of framed events (`seal(t:kind:fields:)`), made at the first of them; an event
  /// added by `event` lets it go, since its `seq` would be behind.
  private var opening: EventOpening?

  init(bufferBytes: Int) {
    buffer = CanonicalJSONWriter(capacity: bufferBytes)
  }

  /// Adds an event line: `seq` and `t` first, then `kind`, then what `fields` writes. An
  /// event outside `LogLimits` adds nothing and is refused.
  mutating func event(t: Int64, kind: EventKind, fields: (inout CanonicalJSONWriter) -> Void) -> Result<Int64, LimitProblem> {
    precondition(t >= lastTime, "virtual time went backwards: \(t) < \(lastTime)")
    let seq = lastSeq + 1
    if let problem = LogLimits.problem(seq: seq, t: t) { return .failure(LimitProblem(text: problem)) }
    scratch.removeAll()
    Self.encodeEvent(into: &scratch, seq: seq, t: t, kind: kind, fields: fields)
    if let problem = LogLimits.problem(seq: seq, t: t, bodyBytes: scratch.count) {
      return .failure(LimitProblem(text: problem))
    }
    lastSeq = seq
    lastTime = t
    opening = nil
    scratch.withBytes { Self.seal($0, chain: &chain, into: &buffer) }
    return .success(seq)
  }

  /// Adds the line whose body `encode` writes (a whole JSON object).
  mutating func line(_ encode: (inout CanonicalJSONWriter) -> Void) {
    scratch.removeAll()
    encode(&scratch)
    scratch.withBytes { Self.seal($0, chain: &chain, into: &buffer) }
  }

  /// Adds the line of the next event, at `t` of `kind`, whose `fields` an `EventFrame` carried
  /// (each member after its comma, then the closing brace): its opening, then the fields, chained.
  mutating func seal(t: Int64, kind: EventKind, fields: UnsafeRawBufferPointer) {
    precondition(t >= lastTime, "virtual time went backwards: \(t) < \(lastTime)")
    precondition(fields.last == UInt8(ascii: "}"), "an event's fields end with its closing brace")
    if opening == nil { opening = EventOpening(lastSeq: lastSeq, lastTime: lastTime) }
    let start = buffer.count
    opening!.write(into: &buffer, t: t, kind: kind)
    opening!.taken()
    buffer.verbatim(UnsafeRawBufferPointer(rebasing: fields[0..<(fields.count - 1)]))
    let hex = buffer.withBytes { chain.link(UnsafeRawBufferPointer(rebasing: $0[start...]), then: UInt8(ascii: "}")) }
    Self.appendHash(hex, to: &buffer)
    lastSeq += 1
    lastTime = t
  }

  private static func seal(_ body: UnsafeRawBufferPointer, chain: inout HashChain, into buffer: inout CanonicalJSONWriter) {
    let hex = chain.link(body)
    buffer.verbatim(UnsafeRawBufferPointer(rebasing: body[0..<(body.count - 1)]))
    appendHash(hex, to: &buffer)
  }

  /// Ends a line whose body, less its closing brace, is in `buffer`: `,"h":"HEX"}` and the newline.
  private static func appendHash(_ hex: [UInt8], to buffer: inout CanonicalJSONWriter) {
    buffer.verbatim(#","h":""#)
    hex.withUnsafeBytes { buffer.verbatim($0) }
    buffer.verbatim("\"}\n")
  }

  /// Appends an event's canonical body to `w`: `seq`, `t` and `kind` first, then what `fields` writes.
  static func encodeEvent(into w: inout CanonicalJSONWriter, seq: Int64, t: Int64, kind: EventKind,
                          fields: (inout CanonicalJSONWriter) -> Void) {
    w.beginObject()
    w.field("seq", seq)
    w.field("t", t)
    w.field("kind", kind.rawValue)
    fields(&w)
    w.endObject()
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
