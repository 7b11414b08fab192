import EventStore
import Lifecycle
import Suite

/// `lifesim test --html DIR`: `DIR/index.html`, every case with its status, profile, times, the
/// failed expectation (or the error) and its line, and a link to the timeline of each failing
/// case whose log was kept, written beside it as `case-N.html` (`export --format html`). Every
/// file goes through `OutputSink`: it appears whole or not at all, and replaces the last report.
enum SuiteHTMLReport {
  /// `inputs`: the suite's scripts, which no page may replace.
  static func write(_ results: [CaseResult], summary: SuiteSummary, wallUs: Int64?, to folder: String,
                    inputs: [String]) throws(SuiteError) {
    do {
      var timelines: [Int: String] = [:]
      for r in results where r.status == .failed || r.status == .error {
        guard let log = r.logPath else { continue }
        let file = "case-\(r.index + 1).html"
        let sink = try OutputSink(path: folder + "/" + file, overwrite: true, inputs: [log] + inputs)
        do { TimelineExport.write(try RunTable(reading: try LogReader(path: log)), log: log, to: sink) } catch {
          sink.discard()
          throw SuiteError("\(log): \(error)")
        }
        try sink.commit()
        timelines[r.index] = file
      }
      let sink = try OutputSink(path: folder + "/index.html", overwrite: true, inputs: inputs)
      sink.write(page(results, summary: summary, wallUs: wallUs, timelines: timelines))
      try sink.commit()
    } catch let error as SuiteError {
      throw error
    } catch {
      throw SuiteError("\(error)")
    }
  }

  private static func escape(_ text: String) -> String {
    text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
  }

  private static func page(_ results: [CaseResult], summary: SuiteSummary, wallUs: Int64?, timelines: [Int: String]) -> String {
    let verdict = summary.exitStatus == 0 ? "passed" : summary.exitStatus == 1 ? "failed" : "error"
    var rows = ""
    for r in results {
      let profile = "iOS \(r.ios)" + (r.scenes ? "" : ", no scenes")
      let message = r.message.map { escape($0) + (r.at.map { " <small>(\(escape($0)))</small>" } ?? "") } ?? ""
      let link = timelines[r.index].map { "<a href=\"\($0)\">timeline</a>" } ?? ""
      rows += "<tr class=\"\(r.status.rawValue)\" data-case=\"\(r.index + 1)\"><td>\(r.index + 1)</td><td>\(escape(r.name))</td>"
        + "<td class=\"status\">\(r.status.rawValue)</td><td>\(profile)</td><td>\(r.seed)</td>"
        + "<td>\(VirtualTime.format(r.virtualUs)) s</td>" + (wallUs == nil ? "" : "<td>\(VirtualTime.formatSeconds2(r.wallUs)) s</td>")
        + "<td>\(message)\(r.status == .passed || r.status == .skipped ? "" : "<br><code>\(escape(r.reproduce))</code>")</td><td>\(link)</td></tr>\n"
    }
    return """
      <!doctype html><html lang="en"><head><meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
      <title>lifesim test: \(verdict)</title><style>
      body{font:13px/1.4 system-ui,sans-serif;margin:14px;color:#1d2330}table{border-collapse:collapse;width:100%}
      th,td{border-bottom:1px solid #e3e6eb;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f3f4f7}
      .passed .status{color:#0a7d32}.failed .status,.error .status{color:#c4162a;font-weight:600}.skipped .status{color:#687082}
      code{background:#eef0f4;padding:1px 4px;border-radius:3px}.verdict{font-weight:600;color:\(summary.exitStatus == 0 ? "#0a7d32" : "#c4162a")}
      </style></head><body>
      <h1>lifesim test: <span class="verdict">\(verdict)</span></h1>
      <p id="summary">\(summary.cases) cases: \(summary.passed) passed, \(summary.failed) failed, \(summary.skipped) skipped, \(summary.errors) errors; \
      \(VirtualTime.format(summary.virtualUs)) s of virtual time\(wallUs.map { " in \(VirtualTime.formatSeconds2($0)) s" } ?? "").</p>
      <table><thead><tr><th>#</th><th>case</th><th>status</th><th>profile</th><th>seed</th><th>virtual time</th>\(wallUs == nil ? "" : "<th>wall time</th>")<th>failed expectation or error</th><th></th></tr></thead>
      <tbody>
      \(rows)</tbody></table></body></html>
      """
  }
}
