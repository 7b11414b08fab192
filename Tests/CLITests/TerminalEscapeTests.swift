import Foundation
import Testing
import TestSupport

/// Text an app, a scenario or a log supplies reaches a terminal with its control characters made
/// visible (`\u{1B}`), even through a pipe: an app could retitle the terminal or erase the ✘ line
/// above. JSON output keeps its own escapes.
@Suite struct TerminalEscapeTests {
  private static let app = #"""
    app { name = "E", root = "Main" }
    controller "Main" { }
    function AppDelegate.didFinishLaunchingWithOptions(application, options)
      log("title \27]0;pwned\7 WORD")
      store("k\27[2K\r\194\155", "v\127")
      return true
    end
    """#

  private func folder(_ name: String) throws -> String {
    try scriptFolder(name, [
      "app.lua": Self.app.replacingOccurrences(of: "WORD", with: "done"),
      "app2.lua": Self.app.replacingOccurrences(of: "WORD", with: "gone"),
      "s.lua": "scenario { app = \"app.lua\" }\nlaunch()\nexpect(false, \"erase \\27[1A\\27[2K\\r✔ all fine\")\n",
      "bad.lua": "scenario { app = \"app.lua\" }\nlaunch()\nerror(\"boom \\27]0;title\\7\")\n",
    ])
  }

  /// No control character but the line feed.
  private func clean(_ text: String) -> Bool {
    !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
  }

  @Test func runReplayAndDiffShowEscapesVisibly() throws {
    let dir = try folder("escapes-trace")
    let run = try lifesim(["run", "s.lua", "-o", "e.lifelog"], cwd: dir)
    #expect(run.status == 1)
    #expect(run.out.contains(#"· log title \u{1B}]0;pwned\u{7} done"#), "\(run.out)")
    #expect(run.out.contains(#"· store k\u{1B}[2K\u{D}\u{9B} = "v\u{7F}""#))
    #expect(run.out.contains(#"✘ expect: erase \u{1B}[1A\u{1B}[2K\u{D}✔ all fine  s.lua:3"#))
    #expect(run.out.contains(#"Stored: k\u{1B}[2K\u{D}\u{9B} = "v\u{7F}"."#))
    _ = try lifesim(["run", "s.lua", "--app", "app2.lua", "-o", "e2.lifelog", "-q"], cwd: dir)
    let outputs = [run] + (try [["replay", "e.lifelog"], ["replay", "e.lifelog", "--state"], ["diff", "e.lifelog", "e2.lifelog"],
                                ["replay", "e.lifelog", "--app", "app2.lua"]].map { try lifesim($0, cwd: dir) })
    for r in outputs {
      #expect(clean(r.out) && clean(r.err), "\(r.out)\(r.err)")
    }
    #expect(outputs[2].out.contains(#"  stored: k\u{1B}[2K\u{D}\u{9B} = "v\u{7F}""#))
    #expect(outputs[3].out.contains("\n+     0.000000       · log title \\u{1B}]0;pwned\\u{7} gone\n"), "\(outputs[3].out)")
    #expect(outputs[4].out.contains(#"  recorded:  {"seq":5,"t":0,"kind":"call","name":"log","message":"title \u001b]0;pwned\u0007 done","at":"app.lua:4"}"#))
  }

  @Test func theSuitesReportShowsEscapesVisibly() throws {
    let dir = try folder("escapes-suite")
    try FileManager.default.moveItem(atPath: dir + "/s.lua", toPath: dir + "/s_test.lua")
    try FileManager.default.removeItem(atPath: dir + "/bad.lua")
    let r = try lifesim(["test", "."], cwd: dir)
    #expect(r.status == 1 && clean(r.out) && clean(r.err), "\(r.out)\(r.err)")
    #expect(r.out.contains("\n  expect: erase \\u{1B}[1A\\u{1B}[2K\\u{D}✔ all fine  (s_test.lua:3)\n"), "\(r.out)")
  }

  /// A case is named after its file when it declares no name: a file name holding an escape
  /// reaches the warning lines and the comparison's heading only made visible.
  @Test func aCaseNamedAfterItsFileShowsEscapesVisibly() throws {
    let dir = try scriptFolder("escapes-name", ["\u{1B}]0;pwned\u{7}.lua": "scenario { }\nlaunch()\n"])
    let warned = try lifesim(["test", ".", "--no-wall-time"], cwd: dir)
    #expect(warned.status == 0 && clean(warned.out) && clean(warned.err), "\(warned.out)\(warned.err)")
    #expect(warned.out.contains("[\\u{1B}]0;pwned\\u{7} [iOS 17]]\n"), "\(warned.out)")
    let compared = try lifesim(["test", ".", "--compare", "scenes", "--no-wall-time"], cwd: dir)
    #expect(clean(compared.out) && clean(compared.err), "\(compared.out)\(compared.err)")
    #expect(compared.out.contains("\\u{1B}]0;pwned\\u{7}: iOS 17: no scenes → scenes\n"), "\(compared.out)")
  }

  @Test func scriptErrorsShowEscapesVisiblyAndJSONKeepsItsOwn() throws {
    let dir = try folder("escapes-error")
    let r = try lifesim(["run", "bad.lua", "-q"], cwd: dir)
    #expect(r.status == 2 && r.err == "lifesim: bad.lua:3: boom \\u{1B}]0;title\\u{7}\n", "\(r.err)")
    let json = try lifesim(["run", "bad.lua", "--json"], cwd: dir)
    #expect(json.out.contains(#""error":"bad.lua:3: boom \u001b]0;title\u0007""#), "\(json.out)")
  }
}
