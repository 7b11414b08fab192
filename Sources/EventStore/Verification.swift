/// The result of checking a log's integrity (the library side of `lifesim verify`).
public enum LogVerification: Equatable, Sendable {
  /// Every line checks out and a trailer closes the log.
  case intact(events: Int64)
  /// Every line present checks out, but the log has no trailer.
  case cutOff(afterEvent: Int64)
  /// A line is damaged; `validEvents` intact events come before it.
  case damaged(line: Int, reason: String, validEvents: Int64)
  /// The file is not a readable log.
  case unreadable(String)

  /// The message `lifesim verify` prints.
  public var description: String {
    switch self {
    case let .intact(n): return LogEnding.intactMessage(events: n)
    case let .cutOff(n): return LogEnding.cutOffMessage(afterEvent: n)
    case let .damaged(line, reason, _): return "line \(line): \(reason)"
    case let .unreadable(reason): return reason
    }
  }

  /// Reads the whole log at `path` in constant memory and says whether it is intact.
  ///
  /// An intact or cut-off log in a regular file is checked on two threads, in place
  /// (`ParallelVerification`); anything else (a damaged log, a pipe) is read line by line, so
  /// the message is `checkByReading`'s.
  public static func check(path: String) -> LogVerification {
    ParallelVerification.check(path: path) ?? checkByReading(path: path)
  }

  /// The two-thread check alone: nil where `check` falls back to reading line by line (for
  /// the tests and the fuzzer that compare the two paths).
  public static func checkInParallel(path: String) -> LogVerification? {
    ParallelVerification.check(path: path)
  }

  /// The reference check: `LogReader` reads every line, one at a time, and names the first
  /// problem.
  public static func checkByReading(path: String) -> LogVerification {
    let reader: LogReader
    do { reader = try LogReader(path: path, mode: .integrity) } catch {
      if case let .unreadable(reason) = error { return .unreadable(reason) }
      return .unreadable(error.description)
    }
    return check(reading: reader)
  }

  /// The reference check over a reader already open in `.integrity` mode (its header read):
  /// every line after the header, one at a time.
  public static func check(reading reader: LogReader) -> LogVerification {
    var events: Int64 = 0
    do {
      while let line = try reader.next() {
        if case .event = line { events += 1 }
      }
    } catch {
      if case let .damaged(line, reason) = error { return .damaged(line: line, reason: reason, validEvents: events) }
      return .unreadable(error.description)
    }
    switch reader.ending! {
    case let .complete(trailer): return .intact(events: trailer.events)
    case let .cutOff(n): return .cutOff(afterEvent: n)
    }
  }
}
