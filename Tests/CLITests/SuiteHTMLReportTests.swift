import Foundation
import Testing

/// `lifesim test --html DIR`: the suite's report, opened in headless Chromium.
@Suite(.enabled(if: browserReady, "needs /usr/bin/chromium (apt-get install -y chromium) and Python's playwright (pip install playwright); neither could be installed"))
struct SuiteHTMLReportTests {
  @Test func theReportListsEveryCaseAndLinksEachFailingTimeline() throws {
    let app = repositoryRoot.appendingPathComponent("Scripts/apps/notes.lua").path
    let suite = try scriptFolder("suite-html", [
      "a_passes.lua": "scenario { name = \"passes\", ios = 17, app = \"\(app)\" }\nlaunch()\nexpect_state(\"active\")\n",
      "b_fails.lua": "scenario { name = \"fails\", ios = 17, app = \"\(app)\" }\nlaunch()\nexpect_state(\"background\")\n",
    ])
    let report = temp("suite-html-report")
    try? FileManager.default.removeItem(atPath: report)
    let r = try lifesim(["test", suite, "--html", report, "--no-wall-time", "-q"])
    #expect(r.status == 1, "\(r.err)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: report).sorted() == ["case-2.html", "index.html", "logs"])
    let index = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
    #expect(index.contains("<p id=\"summary\">2 cases: 1 passed, 1 failed, 0 skipped, 0 errors; 0.000000 s of virtual time.</p>"))
    #expect(index.contains("<tr class=\"passed\" data-case=\"1\"><td>1</td><td>passes [iOS 17]</td><td class=\"status\">passed</td><td>iOS 17</td><td>1</td><td>0.000000 s</td><td></td><td></td></tr>"))
    #expect(index.contains("<tr class=\"failed\" data-case=\"2\"><td>2</td><td>fails [iOS 17]</td><td class=\"status\">failed</td><td>iOS 17</td><td>1</td><td>0.000000 s</td><td>expect_state: expected state background, but the app is active <small>(\(suite)/b_fails.lua:3)</small><br><code>lifesim run \(suite)/b_fails.lua --ios 17 --seed 1</code></td><td><a href=\"case-2.html\">timeline</a></td></tr>"))
    let check = try pythonScript("check_report.py", [report + "/index.html", "2", "1"])
    #expect(check.status == 0 && check.out == "ok: 2 cases, 1 timelines\n", "\(check.out)\(check.err)")
    let timeline = try pythonScript("check_html.py", [report + "/logs/b_fails-ios17.lifelog", report + "/case-2.html"])
    #expect(timeline.status == 0, "\(timeline.out)\(timeline.err)")
  }
}
