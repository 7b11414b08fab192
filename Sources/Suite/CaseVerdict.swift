import EventStore
import Lifecycle
import ScriptHost
import LifecycleLog

/// Renders the trace lines of the events numbered `seqs` in the log at `path`, reading it as a
/// stream from its start (a line's indentation depends on the events before it); called only for
/// failures, so that no case holds its events in memory.
public typealias TraceRenderer = @Sendable (_ path: String, _ seqs: ClosedRange<Int64>) throws -> [String]

/// How a case that ran ended: its status, what failed and where, and the trace around it, found
/// in the case's log.
struct CaseVerdict {
  /// Trace lines shown before a failed expectation, and after it.
  static let linesBefore: Int64 = 8, linesAfter: Int64 = 3

  var status = CaseResult.Status.passed
  var message: String?
  var at: String?
  var trace: [String] = []

  init(_ result: RunResult, log: String, render: TraceRenderer) {
    if let problem = result.error {
      status = .error
      message = problem
      if result.events > 0 {
        trace = Self.lines(render, log, max(1, result.events - Self.linesBefore - Self.linesAfter + 1)...result.events)
      }
    } else if result.exitStatus != 0 {
      status = .failed
      do {
        guard let failure = try Self.failure(inLog: log, result) else { return }
        message = failure.message
        at = failure.at
        trace = Self.lines(render, log, max(1, failure.seq - Self.linesBefore)...(failure.seq + Self.linesAfter))
      } catch {
        trace = ["(the trace cannot be shown: \(log): \(error))"]
      }
    }
  }

  private static func lines(_ render: TraceRenderer, _ log: String, _ seqs: ClosedRange<Int64>) -> [String] {
    do { return try render(log, seqs).map(\.withoutColourCodes) } catch {
      return ["(the trace cannot be shown: \(log): \(error))"]
    }
  }

  /// The event a failed run failed at, and what to say of it: the first failed expectation, else
  /// the termination nobody expected, else (--strict) the first diagnostic no expectation named.
  private static func failure(inLog path: String, _ result: RunResult) throws -> (seq: Int64, message: String?, at: String?)? {
    let stream = try RecordedLog.stream(path)
    var unexpected: (seq: Int64, message: String)?
    var diagnostic: (seq: Int64, message: String)?
    while let logEvent = try stream.next() {
      // Only these kinds can be a failure: the others are not decoded.
      guard [.expect, .system, .crash, .note].contains(logEvent.kind) else { continue }
      let body = try Event(logEvent).body
      if case let .expectationChecked(name, false, text, line) = body { return (logEvent.seq, "\(name): \(text)", line) }
      if unexpected == nil, let t = body.termination, result.state.unexpectedFaults.contains(t) {
        unexpected = (logEvent.seq, "unexpected termination (\(t.reason.rawValue)\(t.code.map { " \($0)" } ?? "")): \(t.description); name it with expect_terminated if the scenario means it")
      }
      if diagnostic == nil, case let .noted(_, text, code?) = body, code == result.failedDiagnostic {
        diagnostic = (logEvent.seq, "diagnostic \(code): \(text) (--strict)")
      }
    }
    guard let found = unexpected ?? diagnostic else { return nil }
    return (found.seq, result.stopped ?? found.message, nil)
  }
}
