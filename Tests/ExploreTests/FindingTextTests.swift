import Foundation
import Testing
import Lifecycle
@testable import Explore
import ScriptHost

/// A finding's scenario is Lua that does what the finding found, whatever text the app under
/// test put into it: the app decides what its strings hold and its comments show, never the code.
@Suite struct FindingTextTests {
  @Test("an action with no arguments is written act(\"save\"), its arguments each as a literal")
  func actionCalls() {
    #expect(VerbCallText.call(.act("save", arguments: [])) == #"act("save")"#)
    #expect(VerbCallText.call(.act("type", arguments: [.string("\u{1}2"), .int(.min), .double(-.infinity)]))
            == #"act("type", "\0012", (-9223372036854775807 - 1), (-1/0))"#)
  }

  @Test("the app's text in the comments cannot end a comment line: \\r and \\n are written as escapes")
  func appTextInCommentsStaysInTheComments() {
    let finding = ExploreFinding(signature: FailureSignature(reason: "crash", place: "Editor.action(x\nos.exit(3)\n--)"),
                                 inputs: [.launch(url: nil), .act("x\nos.exit(3)\n--", arguments: [])], run: 4,
                                 detail: "app.lua:2: disk full\rlaunch() --\u{2028}x")
    let text = FindingScenario.text(finding, number: 1, appReference: "../app.lua", profile: Profile(ios: 17), seed: 1,
                                    specSource: nil, invariantLines: nil)
    #expect(text == #"""
      -- Finding 1: crash in Editor.action(x\nos.exit(3)\n--)
      -- Found by lifesim explore --seed 1 (run 4), shrunk to 2 verbs.
      -- app.lua:2: disk full\rlaunch() --\226\128\168x
      scenario { app = "../app.lua", ios = 17, scenes = true, seed = 1 }
      launch()
      act("x\nos.exit(3)\n--")

      """#)
  }

  @Test("one verb is one verb, not 1 verbs")
  func singularVerb() {
    let finding = ExploreFinding(signature: FailureSignature(reason: "crash", place: "Editor.viewDidLoad()"),
                                 inputs: [.launch(url: nil)], run: 0, detail: "")
    let text = FindingScenario.text(finding, number: 2, appReference: "a.lua", profile: Profile(ios: 17), seed: 3,
                                    specSource: nil, invariantLines: nil)
    #expect(text.split(separator: "\n")[1] == "-- Found by lifesim explore --seed 3 (run 0), shrunk to 1 verb.")
  }

  @Test("an app whose action name and crash message carry line endings gives a finding that reproduces")
  func hostileAppTextReproduces() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-hostile-finding-\(getpid())").path
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try #"""
      app { root = "Editor" }
      controller "Editor" { actions = { ["x\nos.exit(3)\n--"] = function(vc) error("full\rlaunch() --") end, save = function(vc) end } }
      """#.write(toFile: dir + "/app.lua", atomically: true, encoding: .utf8)
    let explorer = try Explorer(ExploreOptions(path: dir + "/app.lua", runs: 60, jobs: 1))
    let report = try ExploreOutput.write(try explorer.explore(), explorer: explorer, to: dir + "/out")
    #expect(report.findings.map(\.reproduces) == [true])
    let lines = String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir + "/out/finding-1.lua")), as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == #"-- Finding 1: crash in Editor.action(x\nos.exit(3)\n--)"#)
    #expect(lines.dropFirst(2).first == "-- \(dir)/app.lua:2: full\\rlaunch() --")
    #expect(lines.suffix(2) == [#"act("x\nos.exit(3)\n--")"#, ""])
  }
}
