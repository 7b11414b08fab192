import EventStore
import Lifecycle

/// A log's header typed once: the `LogHeader` and the `Profile` it records, checked beyond its
/// form (each knob present and in its range, an iOS version lifesim has a profile for, `scenes`
/// as the profile's). A header that fails is refused as damage at line 1, so a reader never
/// hands on values that would overflow. The library opens logs only through `RecordedLog`,
/// which checks every header here: a reader refuses the same headers in a test as in the binary.
public struct RecordedRun: Sendable {
  public let header: LogHeader
  public let profile: Profile

  /// Checks `header`; the error is `line 1: header: why`, as every reader and `verify` say it.
  public init(header: LogHeader) throws(LogProblem) {
    let profile: Profile
    do throws(Profile.KnobError) { profile = try Profile(json: header.profile) } catch { throw Self.damage(error.description) }
    guard profile.scenes == header.scenes else { throw Self.damage("scenes is \(header.scenes) but the profile's is \(profile.scenes)") }
    self.header = header
    self.profile = profile
  }

  private static func damage(_ reason: String) -> LogProblem { .damaged(line: 1, reason: "header: \(reason)") }
}

/// The one way the library opens a log: EventStore's readers, which check a header's form and
/// chain, each with its header's content checked by `RecordedRun` before anything is read past it.
/// A header refused makes the file unreadable as a log, named as EventStore names every other
/// problem of a header (`PATH: line 1: header: why`).
public enum RecordedLog {
  /// `LogReader(path:mode:)`, its header checked.
  public static func reader(_ path: String, mode: LogReader.Mode = .full) throws(LogProblem) -> LogReader {
    let reader = try LogReader(path: path, mode: mode)
    try check(reader.header, of: path)
    return reader
  }

  /// `LogScanner(path:checksChain:)`, its header checked.
  public static func scanner(_ path: String, checksChain: Bool = false) throws(LogProblem) -> LogScanner {
    let scanner = try LogScanner(path: path, checksChain: checksChain)
    try check(scanner.header, of: path)
    return scanner
  }

  /// `LogEventStream(path:following:)`, its header checked.
  public static func stream(_ path: String, following: (() -> any FoldPartFollower)? = nil) throws(LogProblem) -> LogEventStream {
    let stream = try LogEventStream(path: path, following: following)
    try check(stream.header, of: path)
    return stream
  }

  /// `LogVerification.check(path:)`, with the header's content checked first: a header refused
  /// makes the file unreadable, whatever follows it. A regular file is then checked on two
  /// threads (which read its header again, one line); a pipe, which can be read once only, by
  /// the reader that read its header.
  public static func verify(_ path: String) -> LogVerification {
    let reader: LogReader
    do { reader = try self.reader(path, mode: .integrity) } catch {
      if case let .unreadable(reason) = error { return .unreadable(reason) }
      return .unreadable(error.description)
    }
    return POSIXFile.isRegularFile(path) ? LogVerification.check(path: path) : LogVerification.check(reading: reader)
  }

  private static func check(_ header: LogHeader, of path: String) throws(LogProblem) {
    do { _ = try RecordedRun(header: header) } catch { throw .unreadable("\(path): \(error)") }
  }
}
