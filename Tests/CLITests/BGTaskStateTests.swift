import Foundation
import Testing

/// `replay --state` shows what the system holds for the app: BGTaskScheduler requests, launch
/// handlers, background transfers, external power.
@Suite struct BGTaskStateTests {
  @Test func replayStateShowsTheRequestsTheSystemHolds() throws {
    let log = temp("bg-state.lifelog")
    _ = try lifesim(["run", "Scripts/scenarios/bg_task_force_quit.lua", "-o", log, "-q", "--force"])
    let r = try lifesim(["replay", log, "--state"])
    #expect(r.status == 0)
    #expect(r.out.contains("""
        BGTask requests pending: refresh "com.example.feed.refresh" due at 900.000000 s
        launch handlers registered: com.example.feed.refresh, com.example.feed.cleanup
        external power: on
      """), "\(r.out)")
  }
}
