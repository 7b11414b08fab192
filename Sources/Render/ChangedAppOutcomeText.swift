import EventStore
import RunComparison

extension ChangedAppOutcome {
  /// The lines: a heading naming the app, the failed expectations, the outcome paragraph. The
  /// heading never says more than what ran: no expectation, or only those before an unexpected
  /// termination, is not every expectation holding.
  package func text(app: String, seed: Int64) -> String {
    let heading: String
    if !failedEvents.isEmpty {
      heading = "With \(app) these expectations fail:"
    } else if state.expectationsPassed == 0 {
      heading = "With \(app) no expectation ran."
    } else if !state.unexpectedFaults.isEmpty {
      heading = "With \(app) every expectation that ran holds, but the run ended unexpectedly."
    } else {
      heading = "With \(app) every expectation holds."
    }
    var trace = TraceFormatter()
    let failedLines = failedEvents.map { trace.line(seq: $0.seq, $0.event) }
    let outcome = OutcomeText.paragraph(state: state, seed: seed, events: events, rerun: nil)
    return ([TerminalText.visible(heading)] + failedLines + [outcome]).joined(separator: "\n")
  }
}
