import Foundation
import Testing

/// Chromium and Playwright (Debian's browser, never a downloaded one), which `make test` installs.
let browserReady = pythonModuleReady("playwright", executable: "/usr/bin/chromium")

/// `export --format html` opened in headless Chromium (scripts/check_html.py): no console error
/// and no request of any kind; the sequence view's `[data-seq]` marks are exactly the log's
/// events of the kinds shown; a screenshot that is not blank; hovering a callback shows its
/// signature; the sequence view scrolls and search filters both views.
@Suite(.serialized, .enabled(if: browserReady, "needs /usr/bin/chromium (apt-get install -y chromium) and Python's playwright (pip install playwright); neither could be installed"))
struct HTMLTimelineTests {
  @Test func bundledRunsOpenInABrowserAsTheyShould() throws {
    var args = ["--screenshot", repositoryRoot.appendingPathComponent("docs/timeline.png").path]
    for scenario in ["background_task_never_ended", "cold_launch", "launch_watchdog", "push_pop", "tab_switch", "did_enter_background_overrun"] {
      let log = try recordedRun("html-\(scenario).lifelog", scenario: "Scripts/scenarios/\(scenario).lua")
      let html = log + ".html"
      // From the log's folder, so the page (and the screenshot) names it without a temporary path.
      let folder = (log as NSString).deletingLastPathComponent, name = (log as NSString).lastPathComponent
      let r = try lifesim(["export", name, "--format", "html", "-o", name + ".html", "--force"], cwd: folder)
      #expect(r.status == 0 && r.out.isEmpty && r.err.isEmpty, "\(r.err)")
      let page = try String(contentsOfFile: html, encoding: .utf8)
      #expect(page.contains("default-src 'none'") && !page.contains("src=") && !page.contains("href="))
      #expect(page.contains("\"replay\":\"lifesim replay \(name)\""))
      args += [log, html]
    }
    let check = try pythonScript("check_html.py", args)
    #expect(check.status == 0, "\(check.out)\(check.err)")
    #expect(check.out.components(separatedBy: "\nok ").count == 6 && check.out.hasSuffix("\nok: 6 pages\n"), "\(check.out)")
  }

  /// A run of more than 100,000 events loads in under 3 s and draws only what is near the screen.
  @Test func aHundredThousandEventRunLoadsInUnderThreeSeconds() throws {
    let scenario = try scriptFolder("html-big", ["big.lua": """
      scenario { name = "big", ios = 17, app = "\(repositoryRoot.path)/Scripts/apps/notes.lua" }
      launch()
      for i = 1, 3150 do
        home()
        advance(i % 7 * 10)
        launch()
        if i % 500 == 0 then expect_state("active") end
      end

      """]) + "/big.lua"
    let log = temp("html-big.lifelog"), html = temp("html-big.html")
    try? FileManager.default.removeItem(atPath: log)
    #expect(try lifesim(["run", scenario, "-o", log, "-q", "--max-events", "200000"]).status == 0)
    let events = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count - 2
    #expect(events > 100_000)
    let start = Date()
    #expect(try lifesim(["export", log, "--format", "html", "-o", html, "--force"]).status == 0)
    print("html export of \(events) events: \(Date().timeIntervalSince(start)) s")
    let check = try pythonScript("check_html.py", ["--max-load-s", "3", log, html])
    #expect(check.status == 0, "\(check.out)\(check.err)")
    print(check.out)
  }
}
