import Foundation
import Testing
import TestSupport

/// The repository's root (this file is Tests/CLITests/SuiteTests.swift).
private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// Runs `binary` (default: the debug lifesim) in `cwd` (default: the repository).
private func run(_ args: [String], cwd: String = root, binary: String = root + "/.build/debug/lifesim",
                 env: [String: String]? = nil) throws -> (status: Int32, out: String, err: String) {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: binary)
  p.arguments = args
  p.currentDirectoryURL = URL(fileURLWithPath: cwd)
  if let env { p.environment = env }
  let out = Pipe(), err = Pipe()
  p.standardOutput = out
  p.standardError = err
  try p.run()
  let o = out.fileHandleForReading.readDataToEndOfFile()
  let e = err.fileHandleForReading.readDataToEndOfFile()
  p.waitUntilExit()
  return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

/// Runs a Python program (stdin-free); its stdout.
private func python(_ program: String, _ args: [String] = []) throws -> (status: Int32, out: String, err: String) {
  try run(["python3", "-c", program] + args, binary: "/usr/bin/env")
}

/// The JSON Lines of `--json` output.
private func jsonLines(_ text: String) throws -> [[String: Any]] {
  try text.split(separator: "\n").map { line in
    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
  }
}

private func cases(_ text: String) throws -> [(name: String, status: String)] {
  try jsonLines(text).filter { $0["kind"] as? String == "case" }.map { ($0["name"] as? String ?? "?", $0["status"] as? String ?? "?") }
}

/// A suite in a fresh folder: scenarios in a/ and b/, an app in apps/, a required module, a hidden folder.
private func fixture(_ name: String) throws -> String {
  let dir = temporaryPath("lifesim-suite", name)
  let files = [
    "a/one.lua": "scenario { name = \"one\", app = \"../apps/app.lua\" }\nlocal h = require \"helper\"\nlaunch()\nexpect_state(\"active\")\nexpect(h.x == 1, \"the helper loaded\")\n",
    "a/helper.lua": "-- a module: scenario { } appears only in this comment\nreturn { x = 1 }\n",
    "apps/app.lua": "app {}\ncontroller \"ViewController\" {}\n",
    "b/later.lua": "scenario { ios_range = \"15-26\" }\nlaunch()\nexpect_state(\"active\")\n",
    "b/failing.lua": "scenario { }\nlaunch()\nhome()\nexpect_state(\"active\")\n",
    ".hidden/ignored.lua": "scenario { }\nlaunch()\n",
  ]
  for (path, text) in files {
    let full = dir + "/" + path
    try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: full, atomically: true, encoding: .utf8)
  }
  return dir
}

@Suite(.serialized) struct SuiteTests {
  @Test func discoversScenariosOnlyAndResolvesScriptsFromAnyFolder() throws {
    let dir = try fixture("discovery")
    // From another folder: the app and the module resolve relative to the scenario file.
    let r = try run(["test", dir, "--json", "-j", "1"], cwd: NSTemporaryDirectory())
    #expect(try cases(r.out).map(\.name) == ["one [iOS 17]", "failing [iOS 17]", "later [iOS 17]"])
    #expect(try cases(r.out).map(\.status) == ["passed", "failed", "passed"])
    #expect(r.status == 1)
    // A relative path from inside the suite.
    let relative = try run(["test", "../a", "-q", "--no-wall-time"], cwd: dir + "/b")
    #expect(relative.status == 0, "\(relative.out)\(relative.err)")
    #expect(relative.out == "1 case: 1 passed, 0 failed, 0 skipped, 0 errors (virtual time 0.00 s).\n")
    let filtered = try run(["test", dir, "--filter", "one", "--json"])
    #expect(try cases(filtered.out).map(\.name) == ["one [iOS 17]"])
    let app = try run(["test", dir + "/apps/app.lua"])
    #expect(app.status == 2)
    #expect(app.err == "lifesim: \(dir)/apps/app.lua: not a scenario (it never calls scenario { … }); name a scenario or a folder\n")
    let none = try run(["test", dir, "--filter", "nothing-matches"])
    #expect(none.status == 2)
    #expect(none.err.hasPrefix("lifesim: no scenario in \(dir) matching \"nothing-matches\""))
  }

  @Test func theMatrixNamesCasesAndSkipsWhatCannotRun() throws {
    let dir = try fixture("matrix")
    let r = try run(["test", dir + "/b/later.lua", "--ios", "12,15-16", "--scenes", "both", "--json"])
    #expect(r.status == 0)
    let got = try cases(r.out)
    #expect(got.map(\.name) == ["later [iOS 12]", "later [iOS 12, no scenes]", "later [iOS 15]", "later [iOS 15, no scenes]",
                                "later [iOS 16]", "later [iOS 16, no scenes]"])
    #expect(got.map(\.status) == ["skipped", "skipped", "passed", "passed", "passed", "passed"])
    let lines = try jsonLines(r.out)
    #expect(lines[0]["message"] as? String == "iOS 12 has no scenes: only the sceneless case runs")
    #expect(lines[1]["message"] as? String == "ios_range \"15-26\" excludes iOS 12")
    #expect(lines.last?["kind"] as? String == "summary" && lines.last?["skipped"] as? Int == 2 && lines.last?["passed"] as? Int == 4)
    // all: 12 to 18 and 26.
    let all = try run(["test", dir + "/a/one.lua", "--ios", "all", "--json"])
    #expect(try cases(all.out).map(\.name) == [12, 13, 14, 15, 16, 17, 18, 26].map { "one [iOS \($0)]" })
    let bad = try run(["test", dir, "--ios", "19-25"])
    #expect(bad.status == 2)
    #expect(bad.err.hasPrefix("lifesim: --ios 19-25: \"19-25\" names no iOS profile (the profiles: 12 to 18, and 26)\n"))
    let typo = try run(["test", dir, "--ios", "15,x"])
    #expect(typo.err.hasPrefix("lifesim: --ios 15,x: \"x\" is not an iOS version (12 to 26), a range such as 13-17, or all\n"))
    // A malformed ios_range is a script error naming the file and line.
    let broken = dir + "/b/broken.lua"
    try "\nscenario { ios_range = \"15 to 26\" }\nlaunch()\n".write(toFile: broken, atomically: true, encoding: .utf8)
    let error = try run(["test", broken, "--json"])
    #expect(error.status == 2)
    #expect(try jsonLines(error.out)[0]["message"] as? String == "\(broken):2: ios_range: \"15 to 26\" is not an iOS version (12 to 26), a range such as 13-17, or all")
  }

  @Test func reportsAreByteIdenticalWithOneOrTwoWorkers() throws {
    var outputs: [[String]] = []
    for jobs in ["1", "2"] {
      let junit = temporaryPath("lifesim-suite", "det-\(jobs).xml")
      let human = try run(["test", "Scripts/scenarios", "--ios", "all", "--scenes", "both", "-j", jobs, "--no-wall-time", "--junit", junit])
      let json = try run(["test", "Scripts/scenarios", "--ios", "all", "--scenes", "both", "-j", jobs, "--no-wall-time", "--json"])
      #expect(human.status == 0 && json.status == 0, "\(human.out)")
      outputs.append([human.out, json.out, try String(contentsOfFile: junit, encoding: .utf8)])
    }
    #expect(outputs[0] == outputs[1])
    #expect(outputs[0][0].hasSuffix("528 cases: 333 passed, 0 failed, 195 skipped, 0 errors (virtual time 35936.00 s).\n"))
    #expect(try jsonLines(outputs[0][1]).count == 529)
  }

  @Test func theBundledSuiteIsGreenOnEveryProfile() throws {
    let r = try run(["test", "Scripts", "--ios", "all", "-q", "--no-wall-time"])
    #expect(r.status == 0, "\(r.out)")
    #expect(r.out == "264 cases: 241 passed, 0 failed, 23 skipped, 0 errors (virtual time 34931.50 s).\n")
  }
}
