import Foundation
import Testing

/// The chrome-trace export as Perfetto shows it: every callback visible in the sequence clock.
@Suite struct ChromeTraceTests {
  /// Every bundled scenario: in the sequence clock no two slices of a track share a start and
  /// slices nest, every slice and instant has `seq` (and is at it), every callback is a slice
  /// of at least one tick with its args, app calls, notifications, inputs and expectations are
  /// instants, no track goes back in time, and each trace's process is named after its
  /// scenario with a pid no other run shares (scripts/check_trace.py).
  @Test func everyBundledScenarioShowsEveryEventInOrder() throws {
    #expect(bundledRuns.count == (try bundledScenarios().count))
    var args: [String] = []
    for log in bundledRuns {
      let trace = log + ".json"
      let r = try lifesim(["export", log, "--format", "chrome-trace", "-o", trace, "--force"])
      #expect(r.status == 0, "\(r.err)")
      args += [log, trace]
    }
    let check = try pythonScript("check_trace.py", args)
    #expect(check.status == 0, "\(check.out)\(check.err)")
    #expect(check.out.hasPrefix("ok: \(bundledRuns.count) traces"))
  }

  /// A killed task keeps its args and gains `killed`, as a bar on its own track; its expiration
  /// handler and the call it made are on the handlers' track; no track goes back in time.
  @Test func aKilledTaskKeepsItsArgsAndNoTrackGoesBack() throws {
    let log = try recordedRun("trace-never-ended.lifelog", scenario: "Scripts/scenarios/background_task_never_ended.lua")
    for clock in ["sequence", "virtual"] {
      let r = try lifesim(["export", log, "--format", "chrome-trace", "--clock", clock])
      let object = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
      let events = object?["traceEvents"] as? [[String: Any]] ?? []
      let threads = Dictionary(events.filter { $0["name"] as? String == "thread_name" }.compactMap { e -> (Int, String)? in
        guard let tid = e["tid"] as? Int, let name = (e["args"] as? [String: Any])?["name"] as? String else { return nil }
        return (tid, name)
      }, uniquingKeysWith: { a, _ in a })
      let task = events.first { ($0["name"] as? String) == "task 1 \"upload\" (killed)" }
      let args = task?["args"] as? [String: Any] ?? [:]
      #expect(threads[task?["tid"] as? Int ?? 0] == "Background task 1")
      #expect(args["killed"] as? Bool == true && args["seq"] as? Int == 40 && args["at"] as? String == "Scripts/apps/leaky.lua:6")
      #expect(task?["ts"] as? Int == (clock == "sequence" ? 40 : 0))
      // 53: the task_open_after_expiration note after the handler's return is one event more.
      #expect(task?["dur"] as? Int == (clock == "sequence" ? 53 - 40 : 30_000_000))
      let handler = events.first { $0["name"] as? String == "expirationHandler()" }
      #expect(threads[handler?["tid"] as? Int ?? 0] == "Background tasks")
      #expect(handler?["ts"] as? Int == (clock == "sequence" ? 47 : 25_000_000))
      let log = events.first { $0["name"] as? String == "log" && $0["ph"] as? String == "i" }
      #expect((log?["args"] as? [String: Any])?["call"] as? String == "log expiring, but the task is left running")
      #expect(log?["tid"] as? Int == handler?["tid"] as? Int)
      var last: [Int: Int] = [:]
      for e in events where e["ph"] as? String != "M" {
        let tid = e["tid"] as? Int ?? -1, ts = e["ts"] as? Int ?? -1
        #expect(ts >= last[tid, default: 0], "\(clock): \(e)")
        last[tid] = ts
      }
      let process = events.first { $0["name"] as? String == "process_name" }
      #expect((process?["args"] as? [String: Any])?["name"] as? String == "background_task_never_ended (iOS 17, seed 1)")
    }
  }
}
