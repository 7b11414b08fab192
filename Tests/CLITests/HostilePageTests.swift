import EventStore
import Foundation
import Testing

/// The pages lifesim writes from a hostile log, read as text (no browser: these never skip).
/// Every text of the run holds `hostileText`; the trailer has markup for texts and a string
/// where a count belongs. The data may appear only inside the page's JSON blocks, escaped; the
/// page's script and style run by the hashes its policy gives, and nothing else runs.
@Suite struct HostilePageTests {
  /// The page split into its JSON blocks (`id` → text) and everything else.
  private static func blocks(_ page: String) -> (json: [String: String], rest: String) {
    var json: [String: String] = [:], rest = "", tail = Substring(page)
    while let open = tail.firstMatch(of: /<script type="application\/json" id="([a-z]+)">/) {
      rest += tail[..<open.range.lowerBound]
      let after = tail[open.range.upperBound...]
      guard let close = after.range(of: "</script>") else { break }
      json[String(open.1)] = String(after[..<close.lowerBound])
      tail = after[close.upperBound...]
    }
    return (json, rest + tail)
  }

  /// `'sha256-…'` of `text`, computed here with Foundation's base64.
  private static func hashSource(_ text: String) -> String {
    let hex = Array(HashChain.hex(of: Array(text.utf8)))
    let bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(hex[$0...$0 + 1]), radix: 16)! }
    return "'sha256-" + Data(bytes).base64EncodedString() + "'"
  }

  /// Hostile text as it may never appear in markup.
  private static let raw = ["<img", "<!--", "'&", "\u{1}", "\u{7F}"]

  @Test func aHostileLogsTimelineKeepsEveryTextInertAndEscaped() throws {
    let (log, _) = try hostileLog("timeline")
    #expect(try lifesim(["verify", log]).status == 0)
    let html = temp("hostile-timeline.html")
    let r = try lifesim(["export", log, "--format", "html", "-o", html])
    #expect(r.status == 0 && r.err.isEmpty, "\(r.err)")
    let page = try String(contentsOfFile: html, encoding: .utf8)
    let (json, rest) = Self.blocks(page)
    #expect(json.keys.sorted() == ["intervals", "meta", "names", "rows"])
    for (id, text) in json {
      for bad in ["<", ">", "&", "\u{2028}", "\u{2029}"] { #expect(!text.contains(bad), "\(id) holds \(bad.debugDescription)") }
    }
    for bad in Self.raw + ["onerror", "\u{2028}", "\u{2029}"] { #expect(!rest.contains(bad), "the page outside its data holds \(bad.debugDescription)") }
    #expect(rest.components(separatedBy: "</script").count == 2, "only the page's script is closed outside the data blocks")
    #expect(rest.contains("<title>lifesim · h&lt;!--&lt;script&gt;&#39;&amp;&quot;</title>"))
    // The trailer's texts escaped, and its count of the wrong type shown as unknown.
    let meta = try #require(json["meta"])
    #expect(meta.contains(#""outcome":{"state":"\u003c/script\u003e\u003c!--\u003cscript\u003e","passed":null,"failed":null,"#
      + #""terminations":[{"reason":"\u003cimg src=x onerror=window.pwned=1\u003e","code":null,"description":"'\u0026\u2028","category":null,"foreground":null}],"error":null}"#))
    #expect(meta.contains(#""scenario":"h\u003c!--\u003cscript\u003e'\u0026\"""#))
    // Read back, every text is the log's own.
    let namesText = try #require(json["names"])
    let names = try #require(JSONSerialization.jsonObject(with: Data(namesText.utf8)) as? [String])
    let details = names.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    let logged = details.flatMap { $0.values.compactMap { $0 as? String } }.filter { $0 == hostileText }
    #expect(logged.count == 4, "the log message, the stored key and value, the expectation's message: \(details)")
    // The policy allows the page's own script and style by their hashes, and nothing else.
    let script = try #require(rest.firstMatch(of: /<script>([\s\S]*)<\/script>/)).1
    let style = try #require(rest.firstMatch(of: /<style>([\s\S]*)<\/style>/)).1
    #expect(rest.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; base-uri 'none'; form-action 'none'; "
      + "style-src \(Self.hashSource(String(style))); script-src \(Self.hashSource(String(script)))\">"))
    #expect(!page.contains("unsafe-inline") && !script.contains("innerHTML"))
  }

  @Test func aHostileTrailerLeavesTheRunsViewReadableForEveryRun() throws {
    let (hostile, _) = try hostileLog("tables")
    let normal = try recordedRun("hostile-tables-normal.lifelog")
    let dir = temp("hostile-tables-out")
    let r = try lifesim(["export", normal, hostile, "--format", "tables", "-o", dir])
    #expect(r.status == 0 && r.err.isEmpty, "\(r.err)")
    let runs = try String(contentsOfFile: dir + "/runs.jsonl", encoding: .utf8).split(separator: "\n")
    #expect(runs.count == 2)
    #expect(runs[1].contains(#""final_state":"</script><!--<script>","expectations_passed":null,"expectations_failed":null,"terminations":1,"#
      + #""termination_reasons":["<img src=x onerror=window.pwned=1>"],"termination_categories":[null],"error_message":null"#), "\(runs[1])")
    guard duckdbReady else { return }
    let query = try shell("cd " + ShellCommand.line([dir]) + " && python3 -c " + ShellCommand.line([
      "import duckdb; c = duckdb.connect(); c.execute(open('schema.sql').read()); "
        + "print(c.execute('SELECT status, final_state, expectations_passed, expectations_failed FROM runs ORDER BY status').fetchall())",
    ]))
    #expect(query.status == 0, "\(query.err)")
    #expect(query.out == "[('failed', '</script><!--<script>', None, None), ('passed', 'active', 6, 0)]\n", "\(query.out)")
  }

  @Test func aHostileSuiteReportEscapesEveryCaseText() throws {
    let (_, scenario) = try hostileLog("suite")
    let folder = (scenario as NSString).deletingLastPathComponent
    let report = temp("hostile-report")
    let r = try lifesim(["test", folder, "--html", report, "--no-wall-time", "-q"])
    #expect(r.status == 1, "\(r.err)")
    let index = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
    for bad in Self.raw { #expect(!index.contains(bad), "the report holds \(bad.debugDescription)") }
    #expect(!index.contains("<script") && index.contains("script-src 'none'"))
    let escaped = "&lt;/script&gt;&lt;!--&lt;script&gt;&quot;&gt;&lt;img src=x onerror=window.pwned=1&gt;&#39;&amp;\u{2028}\u{2029}\u{FFFD}\u{FFFD}"
    #expect(index.contains("<td>h&lt;!--&lt;script&gt;&#39;&amp;&quot; [iOS 17]</td><td class=\"status\">failed</td>"))
    #expect(index.contains("<td>expect: \(escaped) <small>(\(folder)/h&lt;!--&lt;script&gt;&#39;&amp;&quot;.lua:3)</small>"), "\(index)")
    let timeline = Self.blocks(try String(contentsOfFile: report + "/case-1.html", encoding: .utf8)).rest
    for bad in Self.raw { #expect(!timeline.contains(bad), "the case's timeline holds \(bad.debugDescription) outside its data") }
  }
}
