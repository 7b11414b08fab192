import Foundation
import Testing
import TestSupport

/// Issue 13, item 4: the reproduce line carries every option that shaped the run, shell-safe;
/// run through `sh -c`, it writes the same log, byte for byte.
@Suite(.serialized) struct ReproduceLineTests {
  /// Runs `args` with `-o`, takes the printed reproduce line, runs it through `sh -c` with its
  /// own `-o`, and returns the line and both logs.
  private func reproduce(_ args: [String], name: String) throws -> (line: String, original: Data, again: Data) {
    let first = temp(name + "-1.lifelog"), second = temp(name + "-2.lifelog")
    let r = try lifesim(["run"] + args + ["-o", first, "-q"])
    #expect(r.status == 0 || r.status == 1, "\(r.err)")
    let start = try #require(r.out.range(of: " (reproduce: "))
    #expect(r.out.hasSuffix(").\n"))
    let line = String(r.out[start.upperBound...].dropLast(3))
    #expect(line.hasPrefix("lifesim run "))
    let command = "'\(lifesimBinary)'" + line.dropFirst("lifesim".count) + " -o '\(second)' -q"
    let again = try shell(command)
    #expect(again.status == r.status, "\(command): \(again.err)")
    return (line, try Data(contentsOf: URL(fileURLWithPath: first)), try Data(contentsOf: URL(fileURLWithPath: second)))
  }

  @Test func iosScenesAppAndSeedAreCarried() throws {
    let r = try reproduce(["Scripts/scenarios/cold_launch.lua", "--ios", "15", "--no-scenes", "--app", "Scripts/apps/overrun.lua",
                           "--seed", "7"], name: "flags")
    #expect(r.line == "lifesim run Scripts/scenarios/cold_launch.lua --app Scripts/apps/overrun.lua --ios 15 --no-scenes --seed 7")
    #expect(r.original == r.again)
  }

  @Test func theScenarioCarriesItsSeedAndKnobs() throws {
    let scenario = temp("knobs.lua")
    try """
      scenario { seed = 9, ios = 16, app = "\(repositoryRoot.path)/Scripts/apps/notes.lua", knobs = { backgroundTaskAllowance = 40 } }
      launch()
      home()
      advance(35)

      """.write(toFile: scenario, atomically: false, encoding: .utf8)
    let r = try reproduce([scenario], name: "knobs")
    #expect(r.line == "lifesim run \(scenario) --seed 9")
    #expect(r.original == r.again)
    #expect(String(decoding: r.original, as: UTF8.self).contains("\"backgroundTaskAllowance_us\":40000000"))
  }

  @Test func libraryFoldersAreCarried() throws {
    let lib = try scriptFolder("repro-lib", ["helper.lua": "return { go = function() launch() home() end }\n"])
    let dir = try scriptFolder("repro-scenario", ["s.lua": "local helper = require \"helper\"\nhelper.go()\n"])
    let r = try reproduce([dir + "/s.lua", "--lib", lib], name: "lib")
    #expect(r.line == "lifesim run \(dir)/s.lua --lib \(lib) --seed 1")
    #expect(r.original == r.again)
  }

  @Test func oddPathsAreQuotedAndANegativeSeedIsOneWord() throws {
    let folder = temp("a dir with 'quotes' and $HOME")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let scenario = folder + "/odd\u{1}\"name\".lua"
    try "launch()\nhome()\n".write(toFile: scenario, atomically: false, encoding: .utf8)
    let r = try reproduce([scenario, "--ios", "12", "--seed=-1"], name: "odd")
    let quotedFolder = (folder as NSString).deletingLastPathComponent + "/a dir with '\\''quotes'\\'' and $HOME"
    #expect(r.line == "lifesim run '\(quotedFolder)/odd'\"$(printf '\\001')\"'\"name\".lua' --ios 12 --seed=-1")
    #expect(r.original == r.again)
  }

  /// A suite case's reproduce line is quoted as `run`'s is: its negative seed is one word
  /// (`--seed -3` is read as an option with no value), and run through `sh -c` the line writes
  /// the log the suite kept, byte for byte.
  @Test func aSuiteCaseWithANegativeSeedPrintsALineThatRuns() throws {
    let dir = try scriptFolder("repro-suite", ["s.lua": "scenario { seed = -3 }\nlaunch()\nhome()\nexpect_state(\"active\")\n"])
    let logs = temp("repro-suite-logs"), again = temp("repro-suite-again.lifelog")
    let r = try lifesim(["test", dir + "/s.lua", "--ios", "15", "--no-wall-time", "--logs", logs])
    #expect(r.status == 1, "\(r.out)\(r.err)")
    let lines = r.out.split(separator: "\n").filter { $0.hasPrefix("  reproduce: ") }
    #expect(lines == ["  reproduce: lifesim run \(dir)/s.lua --ios 15 --seed=-3"], "\(r.out)")
    let line = try #require(lines.first).dropFirst("  reproduce: lifesim".count)
    let rerun = try shell("'\(lifesimBinary)'\(line) -o '\(again)' -q")
    #expect(rerun.status == 1, "\(rerun.out)\(rerun.err)")
    #expect(rerun.out.contains("Expectations: 0 passed, 1 failed.") && rerun.out.contains(" Seed -3 (reproduce: "), "\(rerun.out)")
    let kept = try Data(contentsOf: URL(fileURLWithPath: logs + "/s-ios15.lifelog"))
    #expect(kept == (try Data(contentsOf: URL(fileURLWithPath: again))))
  }
}
