/// Where a reader is in a log's event sequence: the rules every reader checks, with the
/// exact words it reports (`line 12: expected event 11, found event 12`).
struct EventOrder {
  /// The `seq` of the last event accepted (0 before the first).
  private(set) var lastSeq: Int64 = 0
  private(set) var lastTime: Int64 = 0

  /// Accepts the event on line `line` if it comes next: `seq` one more, time not going back.
  mutating func accept(seq: Int64, t: Int64, line: Int) throws(LogProblem) {
    guard seq == lastSeq + 1 else {
      throw .damaged(line: line, reason: "expected event \(lastSeq + 1), found event \(seq)")
    }
    guard t >= lastTime else { throw .damaged(line: line, reason: "virtual time goes backwards") }
    lastSeq = seq
    lastTime = t
  }

  /// Checks that the trailer on line `line` counts the events read.
  func checkTrailer(_ trailer: LogTrailer, line: Int) throws(LogProblem) {
    guard trailer.events == lastSeq else {
      throw .damaged(line: line, reason: "trailer counts \(trailer.events) events, the log has \(lastSeq)")
    }
  }
}
