import Foundation
import Testing

/// `lifesim init` gives a new user a green start, and luacheck keeps the bundled scripts honest.
@Suite(.serialized) struct StarterAndLintTests {
  @Test func initWritesAStarterThatRunsGreenAndNeverOverwrites() throws {
    let dir = temp("init")
    try? FileManager.default.removeItem(atPath: dir)
    let r = try lifesim(["init", dir])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out == "wrote \(dir)/home_and_return.lua\nwrote \(dir)/app.lua\nwrote \(dir)/.luarc.json\nnext: lifesim run \(dir)/home_and_return.lua\n")
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
}
