import Foundation
import Testing

/// What `run` and `test` say besides the verdict: a scenario that checks nothing is a warning
/// (`no_expectations`), and a scenario that names no app says an empty app ran.
@Suite struct RunWarningTests {
  static let noCheck = "scenario { app = \"app.lua\" }\nlaunch()\n"
  static let app = "app { root = \"Main\" }\ncontroller \"Main\" {}\n"
  static let warning = "warning: no_expectations: s.lua checks nothing (no expect_* call ran)"

  @Test func runPrintsTheWarningAfterTheOutcome() throws {
    let dir = try scriptFolder("warn-run", ["s.lua": Self.noCheck, "app.lua": Self.app])
    let r = try lifesim(["run", "s.lua", "-q"], cwd: dir)
    #expect(r.status == 0)
    #expect(r.out == "\n\(Self.warning)\nOutcome: the app is active after 30 events. Expectations: 0 passed, 0 failed. No termination. "
      + "Nothing stored. Seed 1 (reproduce: lifesim run s.lua --seed 1).\n", "\(r.out)")
    let json = try lifesim(["run", "s.lua", "--json"], cwd: dir)
    #expect(json.out.hasSuffix(#""stored":{},"diagnostics":[{"code":"no_expectations","message":"s.lua checks nothing (no expect_* call ran)"}]},"#
      + #""warnings":[{"code":"no_expectations","message":"s.lua checks nothing (no expect_* call ran)"}]}"# + "\n"),
            "\(json.out.suffix(300))")
  }

  @Test func aScenarioWithoutAnAppSaysAnEmptyAppRan() throws {
    let dir = try scriptFolder("warn-no-app", ["s.lua": "launch()\nexpect_state(\"active\")\n"])
    let r = try lifesim(["run", "s.lua", "-q"], cwd: dir)
    #expect(r.status == 0)
    #expect(r.out.hasPrefix("\nnote: no app: s.lua names none (scenario { app = \"…\" } or --app), "
      + "so an empty app ran: one controller, ViewController, and no handlers\nOutcome: "), "\(r.out)")
    // A name's control characters are written out, not sent to the terminal.
    let odd = try scriptFolder("warn-odd", ["a\u{1B}[31m.lua": "launch()\n"])
    let o = try lifesim(["run", "a\u{1B}[31m.lua", "-q"], cwd: odd)
    #expect(o.out.hasPrefix("\nnote: no app: a\\u{1B}[31m.lua names none (scenario { app = \"…\" } or --app), so an empty app ran: "
      + "one controller, ViewController, and no handlers\nwarning: no_expectations: a\\u{1B}[31m.lua checks nothing (no expect_* call ran)\n"),
            "\(o.out)")
    let named = try lifesim(["run", "Scripts/scenarios/cold_launch.lua", "-q"])
    #expect(!named.out.contains("note:") && !named.out.contains("warning:"), "\(named.out)")
  }

  @Test func testReportsTheWarningInBothReports() throws {
    let dir = try scriptFolder("warn-test", ["s.lua": Self.noCheck, "app.lua": Self.app])
    let human = try lifesim(["test", "s.lua", "--no-wall-time"], cwd: dir)
    #expect(human.status == 0)
    #expect(human.out.contains("\n\(Self.warning)  [s [iOS 17]]\n"), "\(human.out)")
    let json = try lifesim(["test", "s.lua", "--json", "--no-wall-time"], cwd: dir)
    #expect(json.out.contains(#""status":"passed","events":30,"virtualUs":0,"warnings":[{"code":"no_expectations","message":"s.lua checks nothing (no expect_* call ran)"}],"#
      + #""diagnostics":[{"code":"no_expectations","message":"s.lua checks nothing (no expect_* call ran)"}]}"#),
            "\(json.out)")
  }

  /// Every bundled scenario checks something, and none names a callback its profile never delivers.
  @Test func theBundledSuiteDoesNotWarn() throws {
    let r = try lifesim(["test", "Scripts", "--ios", "all", "--json", "--no-wall-time"])
    #expect(r.status == 0)
    #expect(!r.out.contains("\"warnings\""), "\(r.out.split(separator: "\n").filter { $0.contains("warnings") })")
  }
}
