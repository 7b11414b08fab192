import Foundation
import Testing

/// Nothing a script does crashes lifesim, hangs it, or writes a log that cannot be read: each
/// case ends as an ordinary outcome or a script error, and the log verifies.
@Suite(.serialized) struct HostSafetyTests {
  /// Runs `scenario` against an app made of `app` (after a ViewController declaration) with a
  /// log, checks the log verifies, and returns the run's result.
  private func run(_ name: String, app: String, scenario: String) throws -> (status: Int32, out: String, err: String) {
    let dir = try scriptFolder(name, [
      "app.lua": "controller \"ViewController\" {}\n" + app,
      "s.lua": "scenario { app = \"app.lua\" }\n" + scenario,
    ])
    let r = try lifesim(["run", "s.lua", "-q", "-o", "run.lifelog"], cwd: dir)
    let verify = try lifesim(["verify", "run.lifelog"], cwd: dir)
    #expect(verify.status == 0 && verify.out.contains("intact and complete"), "\(name): \(verify.out)\(verify.err)")
    return r
  }

  @Test func aCyclicTableInStoreCrashesTheAppNotLifesim() throws {
    for call in ["store(\"k\", t)", "log(tostring(pcall(store, \"k\", t)))"] {
      let r = try run("cycle", app: "function SceneDelegate.sceneDidBecomeActive(s)\n  local t = {} t.t = t; \(call)\nend\n",
                      scenario: "launch()\n")
      #expect(r.status == (call.hasPrefix("store") ? 1 : 0), "\(call): \(r.out)\(r.err)")
      if call.hasPrefix("store") {
        #expect(r.out.contains("crash (app.lua:3: store: value nested deeper than 32 tables (or a cycle))"), "\(r.out)")
      }
    }
  }

  @Test func aDeepStoredTableReadManyTimesIsFine() throws {
    let r = try run("deep", app: """
      function SceneDelegate.sceneDidBecomeActive(s)
        local t = {} local c = t
        for _ = 1, 31 do c.x = {} c = c.x end
        store("k", t)
        for _ = 1, 10 do local _ = stored("k") end
      end

      """, scenario: "launch()\nfor _ = 1, 10 do local _ = stored(\"k\") end\nexpect(stored(\"k\").x.x ~= nil, \"deep value read back\")\n")
    #expect(r.status == 0, "\(r.out)\(r.err)")
  }

  @Test func theClockRefusesToPassTheLogsLatestTime() throws {
    let r = try run("clock", app: "", scenario: "launch()\nfor _ = 1, 292472 do advance(31536000) end\n")
    #expect(r.status == 2)
    #expect(r.err == "lifesim: s.lua:3: advance(): the virtual clock would pass 999999999999999999 µs, the latest time a log can hold (state: active)\n")
  }

  @Test func anAfterChainThatNeverIdlesStopsTheRunNamingTheLine() throws {
    let r = try run("after-chain", app: """
      local function again() after(0, again) end
      function SceneDelegate.sceneDidBecomeActive(s) after(0, again) end

      """, scenario: "launch()\n")
    #expect(r.status == 2)
    #expect(r.err == "lifesim: s.lua:2: the app's main thread never goes idle: more than 10000 blocks scheduled with after ran during this verb, the last scheduled at app.lua:2 (a block that schedules itself again?)\n")
  }

  @Test func logOutputHasABudgetPerCallbackAndPerRun() throws {
    let callback = try run("log-callback", app: "function SceneDelegate.sceneDidBecomeActive(s) for _ = 1, 40 do log((\"x\"):rep(2^22)) end end\n",
                           scenario: "launch()\n")
    #expect(callback.status == 2)
    #expect(callback.err == "lifesim: app.lua:2: log: this callback would write more than 4 MiB of log output (the budget of one callback)\n")
    // 24 MiB of a byte the log escapes six-fold (\u0001): the budget stops it long before a 64 MiB line.
    let escaped = try run("log-escaped", app: "function SceneDelegate.sceneDidBecomeActive(s) local x = (\"\\1\"):rep(2^21) "
                            + "log(x .. x .. x .. x .. x .. x .. x .. x .. x .. x .. x .. x) end\n",
                          scenario: "launch()\n")
    #expect(escaped.status == 2, "\(escaped.err)")
    let printed = try run("print-run", app: "", scenario: "launch()\nfor _ = 1, 40 do print((\"x\"):rep(2^20)) end\n")
    #expect(printed.status == 2)
    #expect(printed.err == "lifesim: s.lua:3: print: the run would write more than 32 MiB of log output (the budget of one run)\n")
  }

  @Test func storedDataHasAQuota() throws {
    let r = try run("store-quota", app: """
      function SceneDelegate.sceneDidBecomeActive(s)
        local big = ("x"):rep(2^20)
        for i = 1, 200 do store("k" .. i, big) end
      end

      """, scenario: "launch()\nexpect_terminated(\"crash\")\n")
    #expect(r.status == 0, "\(r.out)\(r.err)")
    #expect(r.out.contains("crash (app.lua:4: store: the app's stored data would be 16777287 bytes, over its quota of 16 MiB)"), "\(r.out)")
  }

  /// `lifesim … | head -1`: the reader goes away after one line. lifesim must not die of SIGPIPE
  /// half-way through a log: it finishes, and the output it could not write makes the exit
  /// status 2 with a message (a CI must not read a 0 whose output was lost).
  @Test func aClosedPipeNeverCutsTheLog() throws {
    let log = temp("pipe.lifelog")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/bash")
    p.arguments = ["-c", "'\(lifesimBinary)' run Scripts/scenarios/away_many_times.lua -o '\(log)' --force 2>/dev/null | head -1 > /dev/null; echo ${PIPESTATUS[0]}"]
    p.currentDirectoryURL = repositoryRoot
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let status = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(status == "2\n")
    #expect(try lifesim(["verify", log]).out == "\(log): intact and complete: 2322 events\n")
    // Every command, its reader gone before it writes: the same status and message, nothing cut.
    let closed = Pipe()
    try closed.fileHandleForReading.close()
    let commands = [["run", "Scripts/scenarios/away_many_times.lua", "-o", log, "--force"], ["replay", log], ["diff", log, log],
                    ["export", log, "--format", "jsonl"], ["verify", log]]
    for command in commands {
      let r = try lifesim(command, stdout: closed.fileHandleForWriting)
      #expect(r.status == 2, "\(command)")
      #expect(r.err == "lifesim: cannot write to standard output: Broken pipe\n", "\(command)")
    }
    #expect(try lifesim(["verify", log]).out == "\(log): intact and complete: 2322 events\n")
  }

  /// The wall-clock guard stops a call that runs too long in real time, in the scenario or the
  /// app, with exit 2 and a log whose trailer says why.
  @Test func theWallClockGuardStopsALongCallAndKeepsTheLog() throws {
    let dir = try scriptFolder("wall", [
      "s.lua": "launch()\nlocal s = 0\nfor i = 1, 1e12 do s = s + i end\n",
      "app.lua": "controller \"ViewController\" { viewDidLoad = function(vc) local s = 0 for i = 1, 1e12 do s = s + i end end }\n",
      "a.lua": "scenario { app = \"app.lua\", knobs = { instructionLimit = 1e12 } }\nlaunch()\n",
    ])
    let scenario = try lifesim(["run", "s.lua", "-q", "--wall-limit", "1", "-o", "s.lifelog"], cwd: dir)
    #expect(scenario.status == 2)
    #expect(scenario.err == "lifesim: s.lua:3: the wall-clock guard stopped the run: the scenario ran for more than 1 s of real time in one call (--wall-limit 1; a guard against hangs, not model behaviour)\n")
    let app = try lifesim(["run", "a.lua", "-q", "--wall-limit", "1", "-o", "a.lifelog"], cwd: dir)
    #expect(app.status == 2)
    #expect(app.err == "lifesim: app.lua:1: the wall-clock guard stopped the run: ViewController#1.viewDidLoad() ran for more than 1 s of real time in one call (--wall-limit 1; a guard against hangs, not model behaviour)\n")
    for log in ["s.lifelog", "a.lifelog"] {
      let verify = try lifesim(["verify", log], cwd: dir)
      #expect(verify.status == 0, "\(verify.out)")
      let text = try String(contentsOfFile: dir + "/" + log, encoding: .utf8)
      #expect(text.contains("the wall-clock guard stopped the run"), "the trailer says why")
    }
  }

  @Test func maxEventsStopsARunCleanly() throws {
    let log = temp("max-events.lifelog")
    let r = try lifesim(["run", "Scripts/scenarios/away_many_times.lua", "--max-events", "100", "-o", log, "-q"])
    #expect(r.status == 2)
    #expect(r.err == "lifesim: the run reached --max-events 100 and stopped there; the log holds every event so far (raise the limit with --max-events N, or advance in smaller steps)\n")
    #expect(try lifesim(["verify", log]).out == "\(log): intact and complete: 100 events\n")
  }

  /// A long run shows its event count on a terminal when it is not printing its trace there,
  /// and clears the line before the outcome; piped, it prints no progress at all.
  @Test func aLongRunShowsProgressOnATerminal() throws {
    let dir = try scriptFolder("progress", ["long.lua": "scenario { app = \"app.lua\" }\nfor _ = 1, 4000 do launch() home() end\nexpect_state(\"suspended\")\n",
                                            "app.lua": "app {}\ncontroller \"ViewController\" {}\n"])
    let binary = repositoryRoot.path + "/.build/debug/lifesim"
    let terminal = try shell("cd \(dir) && script -qec '\(binary) run long.lua -q' /dev/null")
    #expect(terminal.out.hasPrefix("\rrun: 100000 events…\r\u{1B}[K\r\nOutcome: the app is suspended after 108018 events."), "\(terminal.out)")
    let piped = try lifesim(["run", "long.lua", "-q"], cwd: dir)
    #expect(piped.out.hasPrefix("\nOutcome: the app is suspended after 108018 events.") && piped.err.isEmpty, "\(piped.out)")
  }
}
