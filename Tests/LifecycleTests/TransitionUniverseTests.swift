import Testing
@testable import Lifecycle

/// The transitions `coverage` counts and `explore` steers by.
@Suite struct TransitionUniverseTests {
  private func cancelTransitions(ios: Int, scenes: Bool) -> [String] {
    TransitionUniverse(profile: Profile(ios: ios, scenes: scenes), tabs: 0, url: "lifesim://t").transitions
      .filter { $0.verb == "cancel_task" }.sorted().map(\.text)
  }

  @Test("from iOS 26 a continued task can be cancelled in every state the process runs in; before, never")
  func cancelTaskCountsWhereAContinuedTaskRuns() {
    #expect(cancelTransitions(ios: 26, scenes: true) == [
      "active/foregroundActive/cancel_task", "background/background/cancel_task",
      "background/unattached/cancel_task", "inactive/foregroundInactive/cancel_task",
    ])
    #expect(cancelTransitions(ios: 27, scenes: false) == [
      "active/none/cancel_task", "background/none/cancel_task", "inactive/none/cancel_task",
    ])
    #expect(cancelTransitions(ios: 18, scenes: true) == [])
  }
}
