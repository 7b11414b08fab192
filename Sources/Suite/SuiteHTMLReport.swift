import EventStore
import Lifecycle
import Render

/// `lifesim test --html DIR`: `DIR/index.html` opens on the failures (each with its failed
/// expectation or error, its line, the command that reproduces it and a link to its timeline),
/// then (with `--compare`) what changes between the runs compared, then a scenario × profile matrix, then every case in order; each failing case whose log was
/// kept has its timeline beside it as `case-N.html` (`export --format html`). Every text goes
/// through `HTMLText`; the index has no script at all. This draws the index; the command writes
/// the files.
package enum SuiteHTMLReport {
  private static let css = """
    body{font:13px/1.4 system-ui,sans-serif;margin:14px;color:#1d2330}table{border-collapse:collapse;width:100%;margin-bottom:18px}
    th,td{border-bottom:1px solid #e3e6eb;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f3f4f7}h2{font-size:15px}
    .passed .status,td.passed{color:#0a7d32}.failed .status,.error .status,td.failed,td.error{color:#c4162a;font-weight:600}
    .skipped .status,td.skipped{color:#687082}#matrix td,#matrix th{width:auto}
    code{background:#eef0f4;padding:1px 4px;border-radius:3px}.verdict-passed{color:#0a7d32}.verdict-failed,.verdict-error{color:#c4162a}
    """

  /// `index.html`: `timelines` names the page of each case that has one (by its index);
  /// `changes` is the `--compare` section's table as HTML ("" without `--compare`).
  package static func page(_ results: [CaseResult], summary: SuiteSummary, wallUs: Int64?, timelines: [Int: String],
                           changes: String) -> String {
    let verdict = summary.exitStatus == 0 ? "passed" : summary.exitStatus == 1 ? "failed" : "error"
    let style = HTMLText.style(css)
    let failures = results.filter { $0.status == .failed || $0.status == .error }
    let table = CaseTable(wallUs: wallUs, timelines: timelines)
    let wall = wallUs.map { " in \(VirtualTime.formatSeconds2($0)) s" } ?? ""
    return """
      <!doctype html><html lang="en"><head><meta charset="utf-8">
      \(HTMLText.policy(style: style, script: nil))
      <title>lifesim test: \(verdict)</title><style>\(style)</style></head><body>
      <h1>lifesim test: <span class="verdict-\(verdict)">\(verdict)</span></h1>
      <p id="summary">\(summary.cases) cases: \(summary.passed) passed, \(summary.failed) failed, \(summary.skipped) skipped, \
      \(summary.errors) errors; \(VirtualTime.format(summary.virtualUs)) s of virtual time\(wall).</p>

      """
      + (failures.isEmpty ? "<h2>Failures</h2><p id=\"no-failures\">None.</p>\n"
        : "<h2>Failures</h2>\n" + table.html(id: "failures", failures, anchors: false))
      + (changes.isEmpty ? "" : "<h2>What changes</h2>\n" + changes)
      + "<h2>Scenario × iOS</h2>\n" + ProfileMatrix(results, timelines: timelines).html
      + "<h2>All cases</h2>\n" + table.html(id: "cases", results, anchors: true) + "</body></html>\n"
  }

  /// A table of cases, one row each.
  private struct CaseTable {
    let wallUs: Int64?
    let timelines: [Int: String]

    /// `anchors`: each row has the `id` (`case-N`) the matrix links to.
    func html(id: String, _ results: [CaseResult], anchors: Bool) -> String {
      var rows = ""
      for r in results {
        let profile = "iOS \(r.ios)" + (r.scenes ? "" : ", no scenes")
        let message = r.message.map { HTMLText.escaped($0) + (r.at.map { " <small>(\(HTMLText.escaped($0)))</small>" } ?? "") } ?? ""
        let reproduce = r.status == .passed || r.status == .skipped ? "" : "<br><code>\(HTMLText.escaped(r.reproduce))</code>"
        let diagnostics = r.diagnostics.map { "<br><span class=\"diagnostic\">⚠ \(HTMLText.escaped($0.code)): \(HTMLText.escaped($0.message))</span>" }.joined()
        let link = timelines[r.index].map { "<a href=\"\(HTMLText.escaped($0))\">timeline</a>" } ?? ""
        rows += "<tr class=\"\(r.status.rawValue)\"" + (anchors ? " id=\"case-\(r.index + 1)\"" : "") + " data-case=\"\(r.index + 1)\">"
          + "<td>\(r.index + 1)</td><td>\(HTMLText.escaped(r.name))</td><td class=\"status\">\(r.status.rawValue)</td><td>\(profile)</td>"
          + "<td>\(r.seed)</td><td>\(VirtualTime.format(r.virtualUs)) s</td>"
          + (wallUs == nil ? "" : "<td>\(VirtualTime.formatSeconds2(r.wallUs)) s</td>")
          + "<td>\(message)\(diagnostics)\(reproduce)</td><td>\(link)</td></tr>\n"
      }
      return "<table id=\"\(id)\"><thead><tr><th>#</th><th>case</th><th>status</th><th>profile</th><th>seed</th><th>virtual time</th>"
        + (wallUs == nil ? "" : "<th>wall time</th>") + "<th>failed expectation or error</th><th></th></tr></thead>\n<tbody>\n"
        + rows + "</tbody></table>\n"
    }
  }
}
