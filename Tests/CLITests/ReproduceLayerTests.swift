import Foundation
import Testing
import TestSupport

/// The reproduce line `run` prints is a command that runs again, byte for byte, the run that
/// printed it: over every combination of the layers that shape a run (the scenario's
/// declaration, the app's `app { … }`, the command line's options) and a negative seed, the
/// line, run by a shell from the same folder, writes the same log.
@Suite struct ReproduceLayerTests {
  private static let app = """
    app { root = "Home"%@ }
    controller "Home" {}
    function AppDelegate.didFinishLaunchingWithOptions()
      log(tostring(choose("A.swift:1")) .. " " .. tostring(choose("B.swift:2")))
      return true
    end
    """

  static let combinations: [(scenario: Bool, app: Bool, commandLine: Bool, seed: Int64)] =
    [false, true].flatMap { s in [false, true].flatMap { a in [false, true].flatMap { c in [Int64(-3), 7].map { (s, a, c, $0) } } } }

  @Test(arguments: combinations.indices) func theReproduceLineRunsTheSameRun(_ index: Int) throws {
    let (scenario, app, commandLine, seed) = Self.combinations[index]
    let declaration = scenario ? #", ios = 26, knobs = { backgroundTaskAllowance = 40 }, choose = { ["A.swift:1"] = false }"# : ""
    let dir = try scriptFolder("reproduce-\(index)", [
      "s.lua": "scenario { app = \"app.lua\"\(declaration) }\nlaunch()\nhome()\nadvance(5)\n",
      "app.lua": String(format: Self.app, app ? ", sdk = 27" : ""),
    ])
    let options = commandLine ? ["--ios", "27", "--sdk", "26", "--choose", "B.swift:2=true"] : []
    let first = try lifesim(["run", "s.lua", "-o", "first.lifelog", "--seed=\(seed)"] + options, cwd: dir)
    #expect(first.status == 0, "\(first.out)\(first.err)")
    let line = try #require(first.out.range(of: "(reproduce: ").map { String(first.out[$0.upperBound...]) }
      .flatMap { rest in rest.range(of: ").", options: .backwards).map { String(rest[..<$0.lowerBound]) } }, "\(first.out)")
    #expect(line.hasSuffix(seed < 0 ? "--seed=-3" : "--seed 7"), "\(line)")
    #expect(line.contains("--choose B.swift:2=true") == commandLine, "\(line)")
    let path = URL(fileURLWithPath: lifesimBinary).deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
    let again = try runProcess("/bin/sh", ["-c", line + " -o second.lifelog"], cwd: dir, env: ["PATH": path])
    #expect(again.status == 0, "\(line): \(again.out)\(again.err)")
    let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/first.lifelog"))
    let b = try Data(contentsOf: URL(fileURLWithPath: dir + "/second.lifelog"))
    #expect(a == b, "\(line)")
  }

  /// A suite case's reproduce line is the same command: with every option `test` passes on to
  /// its cases (`--sdk`, `--choose`, `--strict`, `--lib`, `--max-events`), run by a shell, it
  /// writes the log the suite kept, byte for byte.
  @Test func aSuiteCasesReproduceLineRunsTheSameRun() throws {
    let dir = try scriptFolder("reproduce-suite", [
      "s.lua": "scenario { app = \"app.lua\" }\nlaunch()\nhome()\nadvance(5)\nexpect_state(\"active\")\n",
      "app.lua": String(format: Self.app, "") + "\nrequire(\"helper\")\n",
      "lib/helper.lua": "return {}\n",
    ])
    let r = try lifesim(["test", "s.lua", "--ios", "26", "--sdk", "27", "--choose", "A.swift:1=false", "--strict",
                         "--lib", "lib", "--max-events", "900", "--logs", "kept", "--no-wall-time"], cwd: dir)
    #expect(r.status == 1, "\(r.out)\(r.err)")
    let line = try #require(r.out.components(separatedBy: "\n").first { $0.hasPrefix("  reproduce: ") }, "\(r.out)")
      .dropFirst("  reproduce: ".count)
    #expect(line == "lifesim run s.lua --ios 26 --sdk 27 --strict --choose A.swift:1=false --lib lib --max-events 900 --seed 1")
    let path = URL(fileURLWithPath: lifesimBinary).deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
    let again = try runProcess("/bin/sh", ["-c", line + " -o again.lifelog"], cwd: dir, env: ["PATH": path])
    #expect(again.status == 1, "\(line): \(again.out)\(again.err)")
    let kept = try Data(contentsOf: URL(fileURLWithPath: dir + "/kept/s-ios26.lifelog"))
    #expect(kept == (try Data(contentsOf: URL(fileURLWithPath: dir + "/again.lifelog"))), "\(line)")
  }

  /// Draws across a process restart: `replay --verify` re-runs a log whose app drew `choose` in
  /// two processes (a jetsam between them) and finds every event as recorded.
  @Test func drawnChoicesReplayAcrossAProcessRestart() throws {
    let dir = try scriptFolder("reproduce-restart", [
      "s.lua": "scenario { app = \"app.lua\" }\nlaunch()\nhome()\nadvance(10)\nmemory_pressure()\nlaunch()\n",
      "app.lua": String(format: Self.app, ""),
    ])
    let run = try lifesim(["run", "s.lua", "-o", "run.lifelog", "--seed", "11", "-q"], cwd: dir)
    #expect(run.status == 0, "\(run.err)")
    let log = try String(contentsOfFile: dir + "/run.lifelog", encoding: .utf8)
    #expect(log.components(separatedBy: #""name":"choose""#).count - 1 == 4, "two draws in each of two processes")
    let verify = try lifesim(["replay", "run.lifelog", "--verify"], cwd: dir)
    #expect(verify.status == 0, "\(verify.out)\(verify.err)")
    #expect(verify.out.contains("identical"), "\(verify.out)")
  }
}
