import Foundation
import Testing

/// A suite of two cases of the notes app: `a_passes.lua` and `b_fails.lua`; `ios`: what the
/// scenarios declare before their app (`ios = 17, `).
private func passingAndFailingSuite(_ name: String, ios: String) throws -> String {
  let app = repositoryRoot.appendingPathComponent("Scripts/apps/notes.lua").path
  return try scriptFolder(name, [
    "a_passes.lua": "scenario { \(ios)app = \"\(app)\" }\nlaunch()\nexpect_state(\"active\")\n",
    "b_fails.lua": "scenario { \(ios)app = \"\(app)\" }\nlaunch()\nexpect_state(\"background\")\n",
  ])
}

/// `lifesim test --html DIR`: the suite's report, opened in headless Chromium.
@Suite(.enabled(if: browserReady, "needs /usr/bin/chromium (apt-get install -y chromium) and Python's playwright (pip install playwright); neither could be installed"))
struct SuiteHTMLReportTests {
  @Test func theReportListsEveryCaseAndLinksEachFailingTimeline() throws {
    let suite = try passingAndFailingSuite("suite-html", ios: "ios = 17, ")
    let report = temp("suite-html-report")
    try? FileManager.default.removeItem(atPath: report)
    let r = try lifesim(["test", suite, "--html", report, "--no-wall-time", "-q"])
    #expect(r.status == 1, "\(r.err)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: report).sorted() == ["case-2.html", "index.html", "logs"])
    let index = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
    #expect(index.contains("<p id=\"summary\">2 cases: 1 passed, 1 failed, 0 skipped, 0 errors; 0.000000 s of virtual time.</p>"))
    #expect(index.contains("<tr class=\"passed\" id=\"case-1\" data-case=\"1\"><td>1</td><td>a_passes [iOS 17]</td><td class=\"status\">passed</td><td>iOS 17</td><td>1</td><td>0.000000 s</td><td></td><td></td></tr>"))
    #expect(index.contains("<tr class=\"failed\" id=\"case-2\" data-case=\"2\"><td>2</td><td>b_fails [iOS 17]</td><td class=\"status\">failed</td><td>iOS 17</td><td>1</td><td>0.000000 s</td><td>expect_state: expected state background, but the app is active <small>(\(suite)/b_fails.lua:3)</small><br><code>lifesim run \(suite)/b_fails.lua --ios 17 --seed 1</code></td><td><a href=\"case-2.html\">timeline</a></td></tr>"))
    let check = try pythonScript("check_report.py", [report + "/index.html", "2", "1"])
    #expect(check.status == 0 && check.out == "ok: 2 cases, 1 timelines\n", "\(check.out)\(check.err)")
    let timeline = try pythonScript("check_html.py", [report + "/logs/b_fails-ios17.lifelog", report + "/case-2.html"])
    #expect(timeline.status == 0, "\(timeline.out)\(timeline.err)")
  }
}

/// The report's text (no browser needed): failures first, then the scenario × iOS matrix, then
/// every case.
@Suite struct SuiteHTMLReportTextTests {
  @Test func theReportOpensOnTheFailuresThenTheMatrix() throws {
    let suite = try passingAndFailingSuite("suite-matrix", ios: "")
    let report = temp("suite-matrix-report")
    let r = try lifesim(["test", suite, "--ios", "16,17", "--scenes", "both", "--html", report, "--no-wall-time", "-q"])
    #expect(r.status == 1, "\(r.err)")
    let index = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
    let tables = index.matches(of: /<table id="([a-z]+)">/).map { String($0.1) }
    #expect(tables == ["failures", "matrix", "cases"])
    let failures = try #require(index.firstMatch(of: /<table id="failures">[\s\S]*?<\/table>/)).0
    #expect(failures.matches(of: /<tr class="failed" data-case="(\d)">/).map { String($0.1) } == ["5", "6", "7", "8"])
    #expect(index.contains("""
      <table id="matrix"><thead><tr><th>scenario</th><th>iOS 16</th><th>iOS 16, no scenes</th><th>iOS 17</th><th>iOS 17, no scenes</th></tr></thead>
      <tbody>
      <tr><th title="\(suite)/a_passes.lua">a_passes</th><td class="passed"><a href="#case-1">passed</a></td><td class="passed"><a href="#case-2">passed</a></td>\
      <td class="passed"><a href="#case-3">passed</a></td><td class="passed"><a href="#case-4">passed</a></td></tr>
      <tr><th title="\(suite)/b_fails.lua">b_fails</th><td class="failed"><a href="case-5.html">failed</a></td><td class="failed"><a href="case-6.html">failed</a></td>\
      <td class="failed"><a href="case-7.html">failed</a></td><td class="failed"><a href="case-8.html">failed</a></td></tr>
      </tbody></table>
      """), "\(index)")
    #expect(index.contains("<tr class=\"passed\" id=\"case-1\" data-case=\"1\"><td>1</td><td>a_passes [iOS 16]</td>"))
  }
}
