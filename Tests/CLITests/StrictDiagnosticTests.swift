import Foundation
import Testing

/// Diagnostics on the command line: ⚠ in the trace, `--strict` on `run`, `test` and
/// `replay --app`, and the test reports (human, JSON, JUnit, HTML).
@Suite struct StrictDiagnosticTests {
  /// An app with one app-delegate method a scene app never hears, and a scenario that passes.
  static let files = [
    "app.lua": "app { root = \"Main\" }\ncontroller \"Main\" {}\nfunction AppDelegate.applicationDidEnterBackground(application) end\n",
    "s.lua": "scenario { app = \"app.lua\", ios = 17 }\nlaunch()\nexpect_state(\"active\")\n",
  ]
  static let message = "AppDelegate.applicationDidEnterBackground(_:) is never called in a scene app: "
    + "UIKit calls SceneDelegate.sceneDidEnterBackground(_:) instead"

  @Test func runMarksTheDiagnosticAndStrictFailsOnIt() throws {
    let dir = try scriptFolder("strict-run", Self.files)
    let plain = try lifesim(["run", "s.lua"], cwd: dir)
    #expect(plain.status == 0)
    #expect(plain.out.contains("    0.000000   ⚠ handler_never_called: \(Self.message)\n"), "\(plain.out)")
    let strict = try lifesim(["run", "s.lua", "--strict", "-q"], cwd: dir)
    #expect(strict.status == 1)
    #expect(strict.out == "\nOutcome: the app is active after 31 events. Expectations: 1 passed, 0 failed. No termination. "
      + "Failed: diagnostic handler_never_called (--strict). Nothing stored. Seed 1 (reproduce: lifesim run s.lua --strict --seed 1).\n",
      "\(strict.out)")
    let json = try lifesim(["run", "s.lua", "--strict", "--json"], cwd: dir)
    #expect(json.status == 1)
    #expect(json.out.contains(#""diagnostics":[{"code":"handler_never_called","message":"\#(Self.message)","handler":"AppDelegate.applicationDidEnterBackground"}]}"#),
            "\(json.out.suffix(400))")
    // A scenario's strict = true does what --strict does.
    let declared = try scriptFolder("strict-declared", ["app.lua": Self.files["app.lua"]!,
      "s.lua": "scenario { app = \"app.lua\", ios = 17, strict = true }\nlaunch()\nexpect_state(\"active\")\n"])
    #expect(try lifesim(["run", "s.lua", "-q"], cwd: declared).status == 1)
  }

  @Test func testReportsTheDiagnosticAndStrictFailsTheCase() throws {
    let dir = try scriptFolder("strict-test", Self.files)
    let human = try lifesim(["test", "s.lua", "--no-wall-time"], cwd: dir)
    #expect(human.status == 0)
    #expect(human.out.contains("\n⚠ handler_never_called: \(Self.message)  [s [iOS 17]]\n"), "\(human.out)")
    // -q prints only failures and the summary: a diagnostic shows there when --strict fails on it.
    let quiet = try lifesim(["test", "s.lua", "--no-wall-time", "-q"], cwd: dir)
    #expect(quiet.out == "1 case: 1 passed, 0 failed, 0 skipped, 0 errors (virtual time 0.00 s).\n", "\(quiet.out)")
    let json = try lifesim(["test", "s.lua", "--json", "--no-wall-time", "--strict"], cwd: dir)
    #expect(json.status == 1)
    #expect(json.out.contains(#""status":"failed","events":31,"virtualUs":0,"message":"diagnostic handler_never_called: \#(Self.message) (--strict)","#
      + #""reproduce":"lifesim run s.lua --ios 17 --strict --seed 1","trace":["    0.000000 ▶ launch  s.lua:2","#
      + #""    0.000000   ● process started (foreground; applicationState background)","#
      + #""    0.000000   ⚠ handler_never_called: \#(Self.message)","#), "\(json.out)")
    #expect(json.out.contains(#""diagnostics":[{"code":"handler_never_called","message":"\#(Self.message)","handler":"AppDelegate.applicationDidEnterBackground"}]}"#),
            "\(json.out)")
    let junit = temp("strict.xml"), html = temp("strict-html")
    try? FileManager.default.removeItem(atPath: junit)
    try? FileManager.default.removeItem(atPath: html)
    _ = try lifesim(["test", "s.lua", "--no-wall-time", "--strict", "--junit", junit, "--html", html], cwd: dir)
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("type=\"diagnostic\">"), "\(xml)")
    #expect(xml.contains("      <system-out>diagnostic handler_never_called: \(Self.message)</system-out>\n    </testcase>"), "\(xml)")
    let page = try String(contentsOfFile: html + "/index.html", encoding: .utf8)
    #expect(page.contains("<br><span class=\"diagnostic\">⚠ handler_never_called: \(Self.message)</span>"), "\(page)")
  }

  @Test func replayAppStrictFailsOnTheNewAppsDiagnostic() throws {
    let dir = try scriptFolder("strict-replay", Self.files.merging(["clean.lua": "app { root = \"Main\" }\ncontroller \"Main\" {}\n"]) { a, _ in a })
    let log = dir + "/clean.lifelog"
    _ = try lifesim(["run", "s.lua", "--app", "clean.lua", "-q", "-o", log], cwd: dir)
    let same = try lifesim(["replay", log, "--app", "app.lua", "--strict"], cwd: dir)
    #expect(same.status == 1)
    #expect(same.out.hasPrefix("Departs at event 3"), "\(same.out)")
    let clean = try lifesim(["replay", log, "--app", "clean.lua", "--strict"], cwd: dir)
    #expect(clean.status == 0 && clean.out == "\(log): same: 30 events re-ran as recorded\n", "\(clean.out)")
    let refused = try lifesim(["replay", log, "--strict"], cwd: dir)
    #expect(refused.status == 2 && refused.err.contains("--strict goes with --app"), "\(refused.err)")
  }

  /// The bundled suite shows its diagnostics only where a scenario names them, but for one: the
  /// scenarios of a sceneless app (`scenes = false`) that run on every profile get iOS 26's
  /// `scene_lifecycle_required` note on 26 and 27, as such an app would, and --strict fails them
  /// there. A sceneless run that `--scenes both` forces on an app that declares nothing is a
  /// what-if, and --strict leaves the note be.
  @Test func theBundledSuiteUnderStrictFailsOnlyDeclaredScenelessAppsOnIOS26And27() throws {
    let r = try lifesim(["test", "Scripts", "--ios", "all", "--scenes", "both", "--strict", "-q", "--no-wall-time", "--json"])
    #expect(r.status == 1)
    let failed = r.out.split(separator: "\n").compactMap { line -> [String: Any]? in
      let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return o?["status"] as? String == "failed" ? o : nil
    }
    #expect(failed.count == 20)
    for f in failed {
      let name = f["name"] as? String ?? "?", file = f["file"] as? String ?? "?"
      #expect(name.hasSuffix("[iOS 26, no scenes]") || name.hasSuffix("[iOS 27, no scenes]"), "\(name)")
      #expect((f["message"] as? String ?? "").hasPrefix("diagnostic scene_lifecycle_required: "), "\(name)")
      let source = try String(contentsOfFile: repositoryRoot.path + "/" + file, encoding: .utf8)
      #expect(source.contains("scenes = false"), "\(file) does not declare scenes = false")
    }
  }
}
