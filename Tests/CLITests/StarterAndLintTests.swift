import Foundation
import Lifecycle
import Testing
import TestSupport

/// `lifesim init` gives a new user a green start, and luacheck keeps the bundled scripts honest.
@Suite(.serialized) struct StarterAndLintTests {
  @Test func initWritesAStarterThatRunsGreenAndNeverOverwrites() throws {
    let dir = temp("init")
    try? FileManager.default.removeItem(atPath: dir)
    let r = try lifesim(["init", dir])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out == "wrote \(dir)/home_and_return.lua\nwrote \(dir)/app.lua\nwrote \(dir)/.luarc.json\nwrote \(dir)/.luacheckrc\nnext: lifesim run \(dir)/home_and_return.lua\n")
    let run = try lifesim(["run", dir + "/home_and_return.lua", "-q"], cwd: "/")
    #expect(run.status == 0, "\(run.out)")
    #expect(run.out.contains("Expectations: 7 passed, 0 failed."))
    let luarc = try String(contentsOfFile: dir + "/.luarc.json", encoding: .utf8)
    #expect(luarc.contains("\"workspace.library\": [\"\(repositoryRoot.path)/Scripts/types\"]"), "\(luarc)")
    let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/app.lua"))
    let again = try lifesim(["init", dir])
    #expect(again.status == 2)
    #expect(again.err == "lifesim: \(dir)/home_and_return.lua: already exists; lifesim init writes nothing over existing files\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/app.lua")) == before)
  }

  @Test func initChecksEveryFileBeforeWritingAny() throws {
    let dir = temp("init-link")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: dir + "/.luarc.json", withDestinationPath: "nowhere")
    let r = try lifesim(["init", dir])
    #expect(r.status == 2)
    #expect(r.err == "lifesim: \(dir)/.luarc.json: already exists; lifesim init writes nothing over existing files\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [".luarc.json"])
  }

  @Test func initWritesALuacheckrcForTheScenarioAndAppAPIs() throws {
    let dir = temp("init-luacheck")
    let r = try lifesim(["init", dir])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.contains("wrote \(dir)/.luacheckrc\n"))
    let clean = try runProcess("/usr/bin/env", ["luacheck", "--no-color", "."], cwd: dir)
    #expect(clean.status == 0, "\(clean.out)")
    #expect(clean.out.contains("0 warnings / 0 errors in 2 files"), "\(clean.out)")
    try "scenario { }\nlaunch()\nhom()\nwork(1)\n".write(toFile: dir + "/typo.lua", atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(atPath: dir + "/apps", withIntermediateDirectories: true)
    try "app {}\ncontroller \"A\" { viewDidLoad = function(vc) wrok(1) end }\nfunction AppDelegate.x() end\n"
      .write(toFile: dir + "/apps/typo.lua", atomically: true, encoding: .utf8)
    let typos = try runProcess("/usr/bin/env", ["luacheck", "--no-color", "."], cwd: dir)
    #expect(typos.status == 1)
    #expect(typos.out.contains("typo.lua:3:1: accessing undefined variable 'hom'"), "\(typos.out)")
    #expect(typos.out.contains("typo.lua:4:1: accessing undefined variable 'work'"), "\(typos.out)")
    #expect(typos.out.contains("accessing undefined variable 'wrok'"), "\(typos.out)")
    #expect(typos.out.contains("3 warnings / 0 errors in 4 files"), "\(typos.out)")
  }

  /// Runs luacheck with the repository's .luacheckrc; `stdin` checks that text as if it were `filename`.
  private func luacheck(_ args: [String], stdin: String? = nil) throws -> (status: Int32, out: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["luacheck", "--no-color", "--config", repositoryRoot.path + "/.luacheckrc"] + args
    p.currentDirectoryURL = repositoryRoot
    let out = Pipe(), input = Pipe()
    p.standardOutput = out
    p.standardInput = input
    try p.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    return (p.terminationStatus, text)
  }

  @Test func bundledScriptsPassLuacheck() throws {
    let r = try luacheck(["Scripts"])
    #expect(r.status != 127, "luacheck is missing: run `make deps` (it installs Debian's lua-check)")
    #expect(r.status == 0, "\(r.out)")
    #expect(r.out.contains("0 warnings / 0 errors"))
  }

  @Test func aMisspelledGlobalInABundledScriptFailsLuacheck() throws {
    let scenario = try luacheck(["--filename", "Scripts/scenarios/typo.lua", "-"], stdin: "launch()\nhom()\n")
    #expect(scenario.status == 1)
    #expect(scenario.out.contains("accessing undefined variable 'hom'"), "\(scenario.out)")
    let app = try luacheck(["--filename", "Scripts/apps/typo.lua", "-"], stdin: "controller \"A\" { viewDidLoad = function(vc) wrok(1) end }\n")
    #expect(app.status == 1)
    #expect(app.out.contains("accessing undefined variable 'wrok'"), "\(app.out)")
  }

  /// Every verb of the verb table is a global of the starter's `.luacheckrc` and of the
  /// repository's: a new verb is never a luacheck warning in a user's scenario or a bundled one.
  @Test func everyVerbIsKnownToBothLuacheckConfigurations() throws {
    let names = VerbSpec.all.map(\.name)
    let source = "scenario { }\nlocal verbs = {\n" + names.map { "  \($0),\n" }.joined() + "}\nexpect(verbs ~= nil)\n"
    let dir = temp("init-verbs")
    #expect(try lifesim(["init", dir]).status == 0)
    try source.write(toFile: dir + "/verbs.lua", atomically: true, encoding: .utf8)
    let starter = try runProcess("/usr/bin/env", ["luacheck", "--no-color", "verbs.lua"], cwd: dir)
    #expect(starter.status == 0, "\(starter.out)")
    let bundled = try luacheck(["--filename", "Scripts/scenarios/verbs.lua", "-"], stdin: source)
    #expect(bundled.status == 0, "\(bundled.out)")
    #expect(names.contains("cancel_task") && names.contains("drag_divider"))
  }
}
