import EventStore
import JSON
import Lifecycle
import Render
import ScriptHost

/// `replay --app`: how the run with the changed app ended, printed after where it departs: which
/// expectations now fail, then its outcome.
struct ChangedAppOutcome {
  private var trace = TraceFormatter()
  /// The failed expectations' trace lines, in order.
  private var failedLines: [String] = []
  /// The same, as `{"name":…,"message":…,"at":…}`.
  private var failed: [JSONValue] = []

  /// Notes a re-run event (failed expectations only).
  mutating func note(seq: Int64, _ event: Event) {
    guard case let .expectationChecked(name, passed, message, at) = event.body, !passed else { return }
    failedLines.append(trace.line(seq: seq, event))
    failed.append(.object([("name", .string(name)), ("message", .string(message)), ("at", at.map { .string($0) } ?? .null)]))
  }

  /// The lines: a heading naming the app, the failed expectations, the outcome paragraph. The
  /// heading never says more than what ran: no expectation, or only those before an unexpected
  /// termination, is not every expectation holding.
  func text(app: String, _ result: RunResult, seed: Int64) -> String {
    let heading: String
    if !failedLines.isEmpty {
      heading = "With \(app) these expectations fail:"
    } else if result.state.expectationsPassed == 0 {
      heading = "With \(app) no expectation ran."
    } else if !result.state.unexpectedFaults.isEmpty {
      heading = "With \(app) every expectation that ran holds, but the run ended unexpectedly."
    } else {
      heading = "With \(app) every expectation holds."
    }
    let outcome = OutcomeText.paragraph(state: result.state, seed: seed, events: result.events, rerun: nil)
    return ([TerminalText.visible(heading)] + failedLines + [outcome]).joined(separator: "\n")
  }

  /// The end line's members (docs/json.md): the outcome, and the failed expectations.
  func json(_ result: RunResult) -> [(String, JSONValue)] {
    [("outcome", result.outcome), ("failedExpectations", .array(failed))]
  }
}
