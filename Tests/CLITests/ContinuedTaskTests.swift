import Foundation
import Testing

/// iOS 26's continued processing tasks (docs/model.md §16), pinned on iOS 26 and 27 from the
/// trace: a task run to its end in the background, submit before register and from the
/// background, `strategy = "fail"` while another runs, the no-progress expiry, the user's cancel
/// from the Live Activity, the switcher swipe; and the gate on iOS 18.
@Suite(.serialized) struct ContinuedTaskTests {
  static let app = """
app { name = "Export", root = "Library", bgTaskIdentifiers = { "com.example.export.*" } }
local n = 0
local function export(task)
  local done = 0
  task.expirationHandler = function()
    store("expired", task.identifier)
    task:setTaskCompleted(false)
  end
  local function step()
    done = done + 1
    task:updateProgress(done, 3)
    if done == 3 then store("done", task.identifier); task:setTaskCompleted(true) else after(10, step) end
  end
  if not STALL then after(10, step) end
end
local function submit(strategy, register)
  n = n + 1
  local id = "com.example.export." .. n
  if register ~= false then BGTaskScheduler:register(id, export) end
  local ok, err = BGTaskScheduler:submit { id = id, kind = "continued", title = "Exporting", subtitle = "3 files", strategy = strategy }
  store("submit " .. n, ok and "pending" or err)
end
controller "Library" {
  actions = {
    export = function(vc, strategy) submit(strategy) end,
    unregistered = function(vc) submit("queue", false) end,
  },
}
function SceneDelegate.sceneDidEnterBackground(scene)
  if FROM_BACKGROUND then submit("queue") end
end
"""

  /// Runs `scenario` (after `scenario { app = "<app>" }`) on `ios` with the app made from
  /// `app` by `edit`; the status and the trace without colour.
  static func run(_ scenario: String, ios: Int, app edit: (String) -> String = { $0 }) throws -> (status: Int32, out: String, err: String) {
    let dir = try scriptFolder("continued-\(ios)", ["app.lua": edit(app), "s.lua": "scenario { app = \"app.lua\" }\n" + scenario])
    return try lifesim(["run", "s.lua", "--ios", String(ios)], env: ["NO_COLOR": "1"], cwd: dir)
  }

  static let id1 = "com.example.export.1"

  @Test(arguments: [26, 27]) func aTaskRunsToItsEndInTheBackground(_ ios: Int) throws {
    let r = try Self.run("launch() act(\"export\") home() expect_state(\"background\") advance(40)\nexpect(stored(\"done\") == \"\(Self.id1)\", \"done\") expect_state(\"suspended\")\n", ios: ios)
    #expect(r.status == 0, "\(r.out)\(r.err)")
    #expect(r.out.contains("""
          0.000000       · BGTaskScheduler.submit continued \(Self.id1) → pending
          0.000000       → BGTaskScheduler#\(Self.id1).launchHandler(_:) {"kind":"continued"}
          0.000000         · after 10.000000 s (#1)
      """), "\(r.out)")
    #expect(r.out.contains("""
         30.000000       · updateProgress \(Self.id1) 3/3
         30.000000       · store done = "\(Self.id1)"
         30.000000       · setTaskCompleted \(Self.id1) true
         30.000000     ← after#3.DispatchQueue.main.asyncAfter(deadline:execute:) after 0.000000 s
         30.000000   ● suspended
      """), "\(r.out)")
  }

  @Test(arguments: [26, 27]) func submitBeforeRegisterCrashesAndFromTheBackgroundIsNotPermitted(_ ios: Int) throws {
    let crash = try Self.run("launch() act(\"unregistered\")\nexpect_terminated(\"crash\")\n", ios: ios)
    #expect(crash.status == 0 && crash.out.contains("""
          0.000000       · BGTaskScheduler.submit continued \(Self.id1) → noLaunchHandler
          0.000000   ✖ terminated: crash: NSInternalInconsistencyException: No launch handler registered for task with identifier \(Self.id1) [abnormal, foreground]
      """), "\(crash.out)")
    let background = try Self.run("launch() home()\nexpect(stored(\"submit 1\") == \"notPermitted\", \"refused\")\n", ios: ios) {
      $0.replacingOccurrences(of: "if FROM_BACKGROUND then", with: "if true then")
    }
    #expect(background.status == 0 && background.out.contains("· BGTaskScheduler.submit continued \(Self.id1) → notPermitted\n")
      && !background.out.contains("launchHandler"), "\(background.out)")
  }

  /// `fail` is `BGTaskScheduler.Error.Code.immediateRunIneligible` (S142), not `unavailable`.
  @Test(arguments: [26, 27]) func failIsImmediateRunIneligibleWhileAnotherRunsAndQueueWaitsForIt(_ ios: Int) throws {
    let r = try Self.run("""
      launch() act("export") act("export", "fail") act("export", "queue")
      expect(stored("submit 2") == "immediateRunIneligible", "fail") expect(stored("submit 3") == "pending", "queued")
      advance(30) expect_calls { "BGTaskScheduler#com.example.export.3.launchHandler" }

      """, ios: ios)
    #expect(r.status == 0, "\(r.out)")
    #expect(r.out.contains("""
         30.000000       · setTaskCompleted \(Self.id1) true
         30.000000       → BGTaskScheduler#com.example.export.3.launchHandler(_:) {"kind":"continued"}
      """), "\(r.out)")
  }

  @Test(arguments: [26, 27]) func noProgressExpiresItAndTheUsersCancelCallsTheSameHandler(_ ios: Int) throws {
    let stalled = try Self.run("launch() act(\"export\") home() advance(40)\nexpect(stored(\"expired\") == \"\(Self.id1)\", \"expired\")\n", ios: ios) {
      $0.replacingOccurrences(of: "if not STALL then", with: "if false then")
    }
    #expect(stalled.status == 0 && stalled.out.contains("""
         30.000000     → BGTask#\(Self.id1).expirationHandler() {"cause":"noProgress"}
      """), "\(stalled.out)")
    let cancelled = try Self.run("launch() act(\"export\") home() advance(15) cancel_task(\"\(Self.id1)\")\nexpect_state(\"suspended\")\n", ios: ios)
    #expect(cancelled.status == 0 && cancelled.out.contains("""
         15.000000 ▶ cancel_task \(Self.id1)  s.lua:2
         15.000000     → BGTask#\(Self.id1).expirationHandler() {"cause":"userCancelled"}
      """), "\(cancelled.out)")
    let again = try Self.run("launch() act(\"export\") cancel_task(\"\(Self.id1)\") cancel_task(\"\(Self.id1)\")\n", ios: ios)
    #expect(again.status == 2 && again.err.hasSuffix("s.lua:2: cancel_task(): no continued task \"\(Self.id1)\" is running unexpired (state: active)\n"), "\(again.err)")
  }

  @Test(arguments: [26, 27]) func theSwitcherSwipeKillsWithNoCallbackAndEmptiesTheQueue(_ ios: Int) throws {
    let r = try Self.run("""
      launch() act("export") act("export") home() expect_state("background") app_switcher() force_quit() advance(100)
      expect_no_calls { "expirationHandler", "launchHandler" } expect_state("not_running")
      launch() advance(100) expect_no_calls { "launchHandler" }

      """, ios: ios)
    #expect(r.status == 0, "\(r.out)")
    #expect(r.out.contains("✖ terminated: user: force quit from the app switcher [normal, background]\n"), "\(r.out)")
  }

  @Test func theGateOnIOS18() throws {
    let submitted = try Self.run("launch() act(\"unregistered\")\nexpect_terminated(\"crash\")\n", ios: 18)
    #expect(submitted.status == 0 && submitted.out.contains(
      #"✖ crash in Library#1.action(_:): app.lua:20: BGTaskScheduler:submit: kind "continued" needs iOS 26 or later (profile: iOS 18) [illegalInstruction, foreground]"#), "\(submitted.out)")
    let registered = try Self.run("launch() act(\"export\")\nexpect_terminated(\"crash\")\n", ios: 18)
    #expect(registered.status == 0 && registered.out.contains(
      "· BGTaskScheduler.register \(Self.id1) → late\n"), "a wildcard is an ordinary id before iOS 26: \(registered.out)")
    let cancel = try Self.run("launch() cancel_task(\"\(Self.id1)\")\n", ios: 18)
    #expect(cancel.status == 2 && cancel.err == "lifesim: s.lua:2: cancel_task(): continued processing tasks need iOS 26 or later (profile: iOS 18) (state: active)\n", "\(cancel.err)")
  }

  /// The chrome-trace draws a continued task's progress as a counter of its own, a sample per
  /// `updateProgress` (the bundled export scenario reports six steps, then a second export one).
  @Test func theChromeTraceDrawsAContinuedTasksProgressAsACounter() throws {
    let log = temp("continued-export-trace.lifelog")
    try? FileManager.default.removeItem(atPath: log)
    let run = try lifesim(["run", "Scripts/scenarios/continued_export.lua", "--lib", "Scripts/lib", "--ios", "26", "-q", "-o", log])
    #expect(run.status == 0, "\(run.out)\(run.err)")
    let trace = try lifesim(["export", log, "--format", "chrome-trace"])
    let samples = trace.out.split(separator: "\n").filter { $0.contains(#""name":"continued "#) }
    let expected = [(59, 1, "16.666666666666664"), (63, 1, "33.33333333333333"), (67, 1, "50.0"), (71, 1, "66.66666666666666"),
                    (75, 1, "83.33333333333334"), (79, 1, "100.0"), (123, 2, "16.666666666666664")]
    #expect(samples.count == expected.count, "\(samples)")
    for (line, (ts, export, percent)) in zip(samples, expected) {
      #expect(line.hasSuffix(#""ts":\#(ts),"name":"continued com.example.exporter.export.\#(export) (%)","args":{"percent":\#(percent)}}"#), "\(line)")
    }
  }
}
