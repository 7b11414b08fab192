/// Why a log could not be written. Every message names the file.
public enum LogWriteError: Error, Equatable, CustomStringConvertible {
  case exists(path: String)
  case locked(path: String)
  case io(path: String, operation: String, reason: String)
  case finished(path: String)

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
    }
  }
}

/// Appends a hash-chained log: header, events, trailer (SPEC §4).
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
  private var chain = HashChain()
  private var buffer: [UInt8] = []
  private var scratch = CanonicalJSONWriter(capacity: 512)
  private var sinceSync = 0
  public private(set) var lastSeq: Int64 = 0
  public private(set) var lastTime: Int64 = 0
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
    buffer.reserveCapacity(options.bufferBytes + 4096)
    scratch.removeAll()
    header.encode(into: &scratch)
    seal()
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
    precondition(t >= lastTime, "virtual time went backwards: \(t) < \(lastTime)")
    lastSeq += 1
    lastTime = t
    scratch.removeAll()
    scratch.beginObject()
    scratch.field("seq", lastSeq)
    scratch.field("t", t)
    scratch.field("kind", kind.rawValue)
    fields(&scratch)
    scratch.endObject()
    seal()
    if buffer.count >= options.bufferBytes { try flush() }
    if options.syncEveryEvents > 0 {
      sinceSync += 1
      if sinceSync >= options.syncEveryEvents { try sync() }
    }
    return lastSeq
  }

  /// Appends a generic event (its `seq` is assigned here).
  @discardableResult
  public func append(_ event: LogEvent) throws(LogWriteError) -> Int64 {
    try append(t: event.t, kind: event.kind) { w in
      for (k, v) in event.fields { w.field(k, v) }
    }
  }

  /// Writes the trailer, flushes and `fsync`s, and releases the file.
  public func finish(outcome: JSONValue) throws(LogWriteError) {
    guard !finished else { throw .finished(path: path) }
    scratch.removeAll()
    LogTrailer(events: lastSeq, t: lastTime, outcome: outcome).encode(into: &scratch)
    seal()
    finished = true
    try sync()
    POSIXFile.close(fd)
    fd = -1
  }

  /// Hands every buffered line to the kernel.
  public func flush() throws(LogWriteError) {
    guard !buffer.isEmpty else { return }
    let failure = buffer.withUnsafeBytes { POSIXFile.writeAll(fd, $0) }
    if let code = failure { throw .io(path: path, operation: "write", reason: POSIXFile.describe(code)) }
    buffer.removeAll(keepingCapacity: true)
    writtenSeq = lastSeq
  }

  /// Flushes and forces the data to disk.
  public func sync() throws(LogWriteError) {
    try flush()
    sinceSync = 0
    if let code = POSIXFile.sync(fd) { throw .io(path: path, operation: "fsync", reason: POSIXFile.describe(code)) }
  }

  /// Chains the body in `scratch` and appends it as a line with its `h`.
  private func seal() {
    let body = scratch.bytes
    let hex = chain.link(body)
    buffer.append(contentsOf: body[0..<(body.count - 1)])
    buffer.append(contentsOf: Self.hashPrefix)
    buffer.append(contentsOf: hex)
    buffer.append(contentsOf: Self.hashSuffix)
  }

  static let hashPrefix: [UInt8] = Array(",\"h\":\"".utf8)
  static let hashSuffix: [UInt8] = Array("\"}\n".utf8)
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
