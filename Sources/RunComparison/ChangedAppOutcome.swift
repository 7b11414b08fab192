import JSON
import Lifecycle

/// `replay --app`: how the run with the changed app ended, reported after where it departs:
/// which expectations now fail, then its outcome (Render's `ChangedAppOutcome.text` prints it).
package struct ChangedAppOutcome {
  /// The failed expectations' events, in order, with their numbers.
  package private(set) var failedEvents: [(seq: Int64, event: Event)] = []
  /// The same, as `{"name":…,"message":…,"at":…}`.
  private var failed: [JSONValue] = []
  /// The re-run's state at its end.
  package private(set) var state = LifecycleState()
  /// The re-run's events.
  package private(set) var events: Int64 = 0
  /// The re-run's outcome, as the end line of `--json` gives it.
  package private(set) var outcome: JSONValue = .null

  /// Nothing noted yet.
  package init() {}

  /// Notes a re-run event (failed expectations only).
  package mutating func note(seq: Int64, _ event: Event) {
    guard case let .expectationChecked(name, passed, message, at) = event.body, !passed else { return }
    failedEvents.append((seq, event))
    failed.append(.object([("name", .string(name)), ("message", .string(message)), ("at", at.map { .string($0) } ?? .null)]))
  }

  /// Notes how the re-run ended.
  package mutating func end(state: LifecycleState, events: Int64, outcome: JSONValue) {
    (self.state, self.events, self.outcome) = (state, events, outcome)
  }

  /// The end line's members (docs/json.md): the outcome, and the failed expectations.
  package var json: [(String, JSONValue)] {
    [("outcome", outcome), ("failedExpectations", .array(failed))]
  }
}
