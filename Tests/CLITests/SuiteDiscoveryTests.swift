import Foundation
import Testing

/// The JSON Lines of `lifesim test --json` of one kind (`case`, `file`, `summary`).
private func lines(_ text: String, kind: String) throws -> [[String: Any]] {
  try text.split(separator: "\n").compactMap { line in
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    return object["kind"] as? String == kind ? object : nil
  }
}

/// `lifesim test` says what every `.lua` file under a suite folder is, runs each real folder
/// once, and never calls a suite that ran nothing green.
@Suite(.serialized) struct SuiteDiscoveryTests {
  @Test func everyLuaFileIsClassifiedAsLuaReadsIt() throws {
    let dir = try scriptFolder("suite-total", [
      // Lua ends a short comment at a lone CR: the scenario{} on the next "line" is code.
      "cr.lua": "-- a Mac-style line end\rscenario { }\rlaunch()\rexpect_state(\"active\")\r",
      "commented.lua": "-- scenario { }\nlaunch()\nexpect_state(\"active\")\n",
      "long.lua": "--[==[ a long comment ]] scenario { } still the comment ]==]\nlocal s = \"scenario { }\"\nreturn s\n",
      "one.lua": "scenario { app = \"apps/app.lua\" }\nlocal h = require \"helper\"\nlaunch()\nexpect(h.x == 1, \"loaded\")\n",
      "helper.lua": "return { x = 1 }\n",
      "apps/app.lua": "app {}\ncontroller \"ViewController\" {}\n",
      "types.lua": "---@meta\nfunction launch() end\n",
    ])
    // A file name that is not UTF-8 is reported, its bytes made visible.
    let raw = (Array((dir + "/bad").utf8) + [0xFF] + Array(".lua".utf8) + [0]).map { CChar(bitPattern: $0) }
    let fd = open(raw, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    try #require(fd >= 0)
    let text = Array("scenario { }\nlaunch()\n".utf8)
    #expect(write(fd, text, text.count) == text.count)
    close(fd)
    try FileManager.default.createSymbolicLink(atPath: dir + "/gone.lua", withDestinationPath: "nowhere.lua")
    let r = try lifesim(["test", dir, "--json", "--no-wall-time"])
    #expect(r.status == 2, "\(r.out)\(r.err)")
    #expect(try lines(r.out, kind: "case").map { $0["name"] as? String } == ["cr [iOS 17]", "one [iOS 17]"])
    #expect(try lines(r.out, kind: "case").map { $0["status"] as? String } == ["passed", "passed"])
    let files = try lines(r.out, kind: "file").map { f in
      [f["path"], f["role"], f["why"], f["problem"]].map { $0.map { "\($0)" } ?? "-" }.joined(separator: " | ")
    }
    #expect(files == [
      "\(dir)/apps/app.lua | app | - | -",
      "\(dir)/bad\\xFF.lua | not a case | name is not UTF-8 | 1",
      "\(dir)/commented.lua | not a case | calls verbs but has no scenario{} line | 1",
      "\(dir)/cr.lua | scenario | - | -",
      "\(dir)/gone.lua | not a case | a link that leads nowhere | -",
      "\(dir)/helper.lua | module | - | -",
      "\(dir)/long.lua | not a case | no scenario{} or app{} call, and no scenario or app requires it | -",
      "\(dir)/one.lua | scenario | - | -",
      "\(dir)/types.lua | not a case | Lua Language Server annotations (---@meta) | -",
    ])
    #expect(try lines(r.out, kind: "summary").first?["problemFiles"] as? Int == 2)
    let human = try lifesim(["test", dir, "--no-wall-time"])
    #expect(human.status == 2)
    #expect(human.out.hasSuffix("""
      · \(dir)/apps/app.lua: app
      ? \(dir)/bad\\xFF.lua: not a case: name is not UTF-8
      ? \(dir)/commented.lua: not a case: calls verbs but has no scenario{} line
      ? \(dir)/gone.lua: not a case: a link that leads nowhere
      · \(dir)/helper.lua: module
      ? \(dir)/long.lua: not a case: no scenario{} or app{} call, and no scenario or app requires it
      ? \(dir)/types.lua: not a case: Lua Language Server annotations (---@meta)
      Files: 2 scenarios, 1 app, 1 module, 5 not cases.
      2 cases: 2 passed, 0 failed, 0 skipped, 0 errors (virtual time 0.00 s).

      """), "\(human.out)")
    // Standard error says why a suite whose cases all passed exits 2.
    #expect(human.err == "lifesim: 2 files look like a scenario but cannot run: \(dir)/bad\\xFF.lua (name is not UTF-8), "
      + "\(dir)/commented.lua (calls verbs but has no scenario{} line)\n", "\(human.err)")
    // -q keeps only the files that are problems.
    let quiet = try lifesim(["test", dir, "-q", "--no-wall-time"])
    #expect(quiet.out == """
      ? \(dir)/bad\\xFF.lua: not a case: name is not UTF-8
      ? \(dir)/commented.lua: not a case: calls verbs but has no scenario{} line
      2 cases: 2 passed, 0 failed, 0 skipped, 0 errors (virtual time 0.00 s).

      """, "\(quiet.out)")
  }

  @Test func aLinkToAFolderIsFollowedOnceAndALoopEnds() throws {
    let dir = try scriptFolder("suite-links", ["s/one.lua": "scenario { }\nlaunch()\n"])
    try FileManager.default.createSymbolicLink(atPath: dir + "/s/again", withDestinationPath: ".")
    try FileManager.default.createSymbolicLink(atPath: dir + "/s/loop", withDestinationPath: "..")
    let r = try lifesim(["test", dir, "--json", "--no-wall-time"])
    #expect(r.status == 0, "\(r.err)")
    #expect(try lines(r.out, kind: "case").map { $0["file"] as? String } == ["\(dir)/s/one.lua"])
  }

  @Test func aSuiteInWhichNoCaseRanIsTrouble() throws {
    let dir = try scriptFolder("suite-none", ["later.lua": "scenario { ios_range = \"15-26\" }\nlaunch()\n"])
    let r = try lifesim(["test", dir, "--ios", "12,14", "-q", "--no-wall-time"])
    #expect(r.status == 2)
    #expect(r.out == "2 cases: 0 passed, 0 failed, 2 skipped, 0 errors (virtual time 0.00 s).\n")
    #expect(r.err == "lifesim: no case ran (2 skipped: ios_range \"15-26\" excludes iOS 12; ios_range \"15-26\" excludes iOS 14)\n")
    let json = try lifesim(["test", dir, "--ios", "14", "--json"])
    #expect(json.status == 2)
    #expect(try lines(json.out, kind: "summary").first?["exitStatus"] as? Int == 2)
    let shard = try lifesim(["test", dir, "--shard", "2/2", "-q", "--no-wall-time"])
    #expect(shard.status == 2)
    #expect(shard.err == "lifesim: no case ran (0 skipped)\n")
  }

  @Test func aScenarioNameNamesItsCasesEverywhere() throws {
    let dir = try scriptFolder("suite-names", [
      "s/plain.lua": "scenario { name = \"cold launch, then home\", ios = 15 }\nlaunch()\nhome()\nexpect_state(\"active\")\n",
    ])
    let junit = dir + "/report.xml"
    let r = try lifesim(["test", dir, "--filter", "then home", "--json", "--junit", junit])
    #expect(r.status == 1, "\(r.out)\(r.err)")
    #expect(try lines(r.out, kind: "case").map { $0["name"] as? String } == ["cold launch, then home [iOS 15]"])
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("<testcase classname=\"\(dir)/s/plain.lua\" name=\"cold launch, then home [iOS 15]\""), "\(xml)")
    let human = try lifesim(["test", dir, "--filter", "plain", "-q"])
    #expect(human.out.hasPrefix("FAILED cold launch, then home [iOS 15]  (\(dir)/s/plain.lua)\n"), "\(human.out)")
    // A name with brackets of its own keeps them where profiles are compared.
    let bracketed = dir + "/s/prewarmed.lua"
    try "scenario { name = \"prewarm [ios 15]\" }\nprewarm()\nlaunch()\n".write(toFile: bracketed, atomically: true, encoding: .utf8)
    let compared = try lifesim(["test", bracketed, "--ios", "14-15", "--compare-profiles", "-q"])
    #expect(compared.out.hasPrefix("prewarm [ios 15]: iOS 14 → 15\n"), "\(compared.out)")
  }
}
