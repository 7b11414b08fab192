import Foundation
import Testing
import TestSupport

/// Issue 13, item 5: every file written with -o (exports, replay --app -o) appears whole or not
/// at all; an output that is the input is refused; a write error is exit 2 with a message.
@Suite(.serialized) struct AtomicOutputTests {
  /// An empty folder of its own, so a test can see that nothing was left behind.
  private func folder(_ name: String) throws -> String {
    let path = temporaryPath("lifesim-out", name)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// The log with event 13 (line 14) removed: damaged after its twelfth event.
  private func damaged(_ log: String, into path: String) throws {
    var lines = try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "\n")
    lines.remove(at: 13)
    try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
  }

  @Test func anExportOfADamagedLogLeavesNothingAndCanBeRetried() throws {
    let dir = try folder("damaged")
    let log = try recordedRun("atomic-source.lifelog")
    try damaged(log, into: dir + "/bad.lifelog")
    for format in ["chrome-trace", "mermaid", "jsonl"] {
      let r = try lifesim(["export", dir + "/bad.lifelog", "--format", format, "-o", dir + "/out"])
      #expect(r.status == 2, "\(format)")
      #expect(r.err == "lifesim: \(dir)/bad.lifelog: line 14: hash chain broken\n", "\(format)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["bad.lifelog"], "\(format)")
    }
    // The retry with a good log is not refused: nothing was left at the path.
    let good = try lifesim(["export", log, "--format", "chrome-trace", "-o", dir + "/out"])
    #expect(good.status == 0 && good.err == "")
    #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/out"))) is [String: Any])
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["bad.lifelog", "out"])
  }

  @Test func anOutputThatIsTheInputIsRefusedEvenWithForce() throws {
    let dir = try folder("self")
    let log = dir + "/run.lifelog"
    #expect(try lifesim(["run", "Scripts/scenarios/cold_launch.lua", "-o", log, "-q"]).status == 0)
    try FileManager.default.createSymbolicLink(atPath: dir + "/link.lifelog", withDestinationPath: "run.lifelog")
    let before = try Data(contentsOf: URL(fileURLWithPath: log))
    for spelling in [log, dir + "/./run.lifelog", dir + "/link.lifelog"] {
      let r = try lifesim(["export", log, "--format", "jsonl", "-o", spelling, "--force"])
      #expect(r.status == 2)
      #expect(r.err == "lifesim: \(spelling): is the input \(log); refusing to write over it, even with --force\n")
    }
    let replay = try lifesim(["replay", log, "--app", "Scripts/apps/notes.lua", "-o", dir + "/link.lifelog", "--force"])
    #expect(replay.status == 2)
    #expect(replay.err == "lifesim: \(dir)/link.lifelog: is the input \(log); refusing to write over it, even with --force\n")
    let app = try lifesim(["replay", log, "--app", "Scripts/apps/notes.lua", "-o", "Scripts/apps/notes.lua", "--force"])
    #expect(app.status == 2)
    #expect(app.err == "lifesim: Scripts/apps/notes.lua: is the input Scripts/apps/notes.lua; refusing to write over it, even with --force\n")
    let scenario = dir + "/s.lua"
    try "launch()\n".write(toFile: scenario, atomically: false, encoding: .utf8)
    let run = try lifesim(["run", scenario, "-o", scenario, "--force", "-q"])
    #expect(run.status == 2)
    #expect(run.err == "lifesim: \(scenario): is the input \(scenario); refusing to write over it, even with --force\n")
    #expect(try String(contentsOfFile: scenario, encoding: .utf8) == "launch()\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["link.lifelog", "run.lifelog", "s.lua"])
  }

  @Test func forceReplacesAnExistingExportWhole() throws {
    let dir = try folder("force")
    let log = try recordedRun("atomic-force.lifelog")
    let out = dir + "/events.jsonl"
    try "old\n".write(toFile: out, atomically: false, encoding: .utf8)
    let refused = try lifesim(["export", log, "--format", "jsonl", "-o", out])
    #expect(refused.status == 2)
    #expect(refused.err == "lifesim: \(out): already exists; refusing to overwrite it (pass --force to replace it)\n")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "old\n")
    #expect(try lifesim(["export", log, "--format", "jsonl", "-o", out, "--force"]).status == 0)
    let expected = try lifesim(["export", log, "--format", "jsonl"]).out
    #expect(try String(contentsOfFile: out, encoding: .utf8) == expected)
    let directory = try lifesim(["export", log, "--format", "jsonl", "-o", dir, "--force"])
    #expect(directory.status == 2 && directory.err == "lifesim: \(dir): is a directory\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["events.jsonl"])
  }

  @Test func replayAppWritesItsLogOnlyWhenTheReRunCompletes() throws {
    let dir = try folder("replay")
    let log = try recordedRun("atomic-replay.lifelog")
    let out = dir + "/overrun.lifelog"
    let departs = try lifesim(["replay", log, "--app", "Scripts/apps/overrun.lua", "-o", out])
    #expect(departs.status == 1)
    #expect(try lifesim(["verify", out]).out == "\(out): intact and complete: 87 events\n")
    // An app with a script error: the re-run stops (exit 2) and leaves no log.
    let broken = dir + "/broken.lua"
    try "app { root = \"Home\" }\ncontroller \"Home\" {}\nfunction AppDelegate.applicationDidBecomeActive(a)\n"
      .write(toFile: broken, atomically: false, encoding: .utf8)
    let failed = try lifesim(["replay", log, "--app", broken, "-o", dir + "/broken.lifelog"])
    #expect(failed.status == 2)
    // The app does not compile: the re-run stops before its first event (no crash is recorded).
    #expect(failed.out.hasPrefix("Departs at event 1 (t = 0.000000 s):\n"))
    #expect(failed.err == "lifesim: \(broken):4: 'end' expected (to close 'function' at line 3) near <eof>\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["broken.lua", "overrun.lifelog"])
  }

  @Test func anInterruptedExportLeavesNothingBehind() throws {
    let dir = try folder("interrupted")
    let scenario = dir + "/long.lua"
    try "launch()\nfor i = 1, 40000 do advance(0.001) end\n".write(toFile: scenario, atomically: false, encoding: .utf8)
    let log = temp("interrupted.lifelog")
    #expect(try lifesim(["run", scenario, "-o", log, "-q"]).status == 0)
    // The test's threads block SIGTERM, and a child inherits that: python unblocks it, then runs lifesim.
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    p.arguments = ["-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
                   lifesimBinary, "export", log, "--format", "chrome-trace", "-o", dir + "/trace.json"]
    p.standardOutput = FileHandle.nullDevice
    try p.run()
    // Wait for the temporary file, then interrupt the export while it writes.
    let deadline = Date().addingTimeInterval(30)
    while try !FileManager.default.contentsOfDirectory(atPath: dir).contains(where: { $0.hasSuffix(".tmp") }), Date() < deadline {
      usleep(2_000)
    }
    p.terminate()
    p.waitUntilExit()
    #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGTERM)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["long.lua"])
  }

  @Test func writeErrorsAreExitTwoWithAMessage() throws {
    let log = try recordedRun("atomic-full.lifelog")
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    for format in ["chrome-trace", "mermaid", "jsonl"] {
      let r = try lifesim(["export", log, "--format", format], stdout: full)
      #expect(r.status == 2, "\(format)")
      #expect(r.err == "lifesim: cannot write to standard output: No space left on device\n", "\(format)")
    }
    let device = try lifesim(["export", log, "--format", "jsonl", "-o", "/dev/full", "--force"])
    #expect(device.status == 2)
    #expect(device.err == "lifesim: /dev/full: cannot write: No space left on device\n")
    // A pipe whose reader has gone: EPIPE, not a silent death by SIGPIPE.
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    let closed = try lifesim(["export", log, "--format", "jsonl"], stdout: pipe.fileHandleForWriting)
    #expect(closed.status == 2)
    #expect(closed.err == "lifesim: cannot write to standard output: Broken pipe\n")
    for args in [["replay", log], ["diff", log, log], ["verify", log, "--json"]] {
      let r = try lifesim(args, stdout: pipe.fileHandleForWriting)
      #expect(r.status == 2 && r.err == "lifesim: cannot write to standard output: Broken pipe\n", "\(args)")
    }
  }

  /// Issue 20: `run -o x.lifelog | head -1` lost the log. The run goes on to its end: the log is
  /// complete, and the lost output is exit 2.
  @Test func aClosedPipeNeverCutsRunsLog() throws {
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    let log = temp("closed-pipe.lifelog")
    let r = try lifesim(["run", "Scripts/scenarios/home_and_return.lua", "-o", log], stdout: pipe.fileHandleForWriting)
    #expect(r.status == 2)
    #expect(r.err == "lifesim: cannot write to standard output: Broken pipe\n")
    #expect(try lifesim(["verify", log]).out == "\(log): intact and complete: 72 events\n")
  }

  /// `run -o` names a script of the run: the app the scenario declares or a module it requires.
  @Test func aRunLogNeverReplacesTheAppOrAModuleItReads() throws {
    let dir = try scriptFolder("run-inputs", [
      "s.lua": "scenario { app = \"app.lua\" }\nrequire \"helper\"\nlaunch()\n",
      "app.lua": "app {}\ncontroller \"ViewController\" {}\n",
      "helper.lua": "return {}\n",
    ])
    let run = try lifesim(["run", "s.lua", "-o", "app.lua", "--force"], cwd: dir)
    #expect(run.status == 2)
    #expect(run.err == "lifesim: app.lua: is the input app.lua; refusing to write over it, even with --force\n", "\(run.err)")
    #expect(try String(contentsOfFile: dir + "/app.lua", encoding: .utf8) == "app {}\ncontroller \"ViewController\" {}\n")
    let module = try lifesim(["run", "s.lua", "-o", "./helper.lua", "--force"], cwd: dir)
    #expect(module.status == 2)
    #expect(module.err == "lifesim: ./helper.lua: is the input helper.lua; refusing to write over it, even with --force\n")
    #expect(try String(contentsOfFile: dir + "/helper.lua", encoding: .utf8) == "return {}\n")
  }
}
