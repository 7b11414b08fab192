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

  /// A hostile log's page (HostileLog.swift) draws its events and runs none of its text: no
  /// dialog, no `window.pwned`, no element made from it, and no console error (a script whose
  /// hash did not match the policy would not run, and the page would never be ready).
  @Test func aHostileLogsPageDrawsItsEventsAndRunsNoneOfItsText() throws {
    let (log, _) = try hostileLog("browser")
    let html = temp("hostile-browser.html")
    #expect(try lifesim(["export", log, "--format", "html", "-o", html]).status == 0)
    let check = try pythonScript("check_html.py", [log, html])
    #expect(check.status == 0 && check.out.hasSuffix("\nok: 1 pages\n"), "\(check.out)\(check.err)")
  }

  /// What the time view draws at its fit zoom (scripts/time_view.py).
  private struct TimeView: Decodable {
    struct Lane: Decodable {
      let bands: [[Band]]
      let marks: [[Int]]
    }
    enum Band: Decodable, Equatable {
      case state(String), px(Int)
      init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let n = try? c.decode(Int.self) { self = .px(n) } else { self = .state(try c.decode(String.self)) }
      }
    }
    let width: Int
    let lanes: [String: Lane]
  }

  private func timeView(_ name: String, _ scenario: String) throws -> TimeView {
    let app = repositoryRoot.appendingPathComponent("Scripts/apps/notes.lua").path
    let dir = try scriptFolder(name, ["s.lua": "scenario { ios = 17, app = \"\(app)\" }\n" + scenario])
    _ = try lifesim(["run", "s.lua", "-o", "s.lifelog", "-q"], cwd: dir)
    #expect(try lifesim(["export", "s.lifelog", "--format", "html", "-o", "s.html"], cwd: dir).status == 0)
    let r = try pythonScript("time_view.py", [dir + "/s.html"])
    #expect(r.status == 0, "\(r.err)")
    return try JSONDecoder().decode(TimeView.self, from: Data(r.out.utf8))
  }

  /// Events at the run's last instant (the relaunch, the failed expectation) are drawn inside
  /// the plot, and each state lane ends in the state the run ended in, as the header says.
  @Test func theTimeViewShowsTheRunsLastInstant() throws {
    let view = try timeView("html-last-instant", "launch()\nhome()\nadvance(600)\nlaunch()\nexpect_state(\"background\")\n")
    for (title, lane) in view.lanes {
      for m in lane.marks { #expect(m[1] >= 0 && m[1] + m[2] <= view.width, "\(title): mark \(m) outside the plot (\(view.width) px)") }
    }
    let flags = try #require(view.lanes["⚑ kills, crashes, failures"])
    #expect(flags.marks.count == 1)
    for (lane, state) in [("process", "s-running"), ("applicationState", "s-active"), ("scene 1 state", "s-foregroundActive")] {
      let last = try #require(view.lanes[lane]?.bands.last)
      #expect(last[0] == .state(state) && last[1] != .px(view.width), "\(lane): \(last)")
      if case let .px(left) = last[1], case let .px(width) = last[2] { #expect(left + width == view.width, "\(lane): \(last)") }
    }
  }

  /// A run in the background but for instants: at fit zoom its scene lane is one background
  /// band; the states of no duration at each return do not cover it.
  @Test func statesOfNoDurationDoNotHideTheStateTheRunSpentItsTimeIn() throws {
    let view = try timeView("html-background", "launch()\nfor i = 1, 300 do\n  home()\n  advance(100)\n  launch()\nend\nhome()\nadvance(100)\n")
    let scene = try #require(view.lanes["scene 1 state"])
    #expect(scene.bands == [[.state("s-background"), .px(0), .px(view.width)]], "\(scene.bands.prefix(8))")
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
