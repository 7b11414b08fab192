import EventStore
import Lifecycle
import Testing

/// The model reads no log, so it keeps its own latest time; it must be the log's.
@Suite struct ClockLimitTests {
  @Test func theModelsLatestTimeIsTheLatestALogCanHold() {
    #expect(VirtualTime.latestUs == LogLimits.timeMaxUs)
  }
}
