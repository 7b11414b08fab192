import EventStore
import Lifecycle

/// `export --format html`: one self-contained page (inline CSS and JS, no request of any kind)
/// showing a run as swimlanes over virtual time and as a sequence of events; see
/// `TimelinePage` for the page itself. The run's data is embedded as JSON, one event a line.
enum TimelineExport {
  /// Events shown as marks: all but transitions (shown as the lanes' states) and returns
  /// (shown as the callbacks' durations).
  static func isShown(_ kind: EventKind) -> Bool {
    switch kind {
    case .transition, .return: return false
    case .input, .system, .callback, .call, .notification, .crash, .expect, .note: return true
    }
  }

  static func write(_ run: RunTable, log: String, to sink: OutputSink) {
    let id = run.identity
    let profile = try? Profile(json: run.header.profile)
    var rerun = ["lifesim", "run", id.scenarioPath]
    if let profile { rerun += ["--ios", String(profile.ios)] }
    if !run.header.scenes, profile?.ios ?? 13 >= 13 { rerun.append("--no-scenes") }
    rerun += run.header.seed < 0 ? ["--seed=\(run.header.seed)"] : ["--seed", String(run.header.seed)]
    let meta: JSONValue = .object([
      ("scenario", .string(id.scenario)), ("scenarioPath", .string(id.scenarioPath)), ("app", .string(id.appPath)),
      ("runId", .string(id.id)), ("ios", profile.map { .int(Int64($0.ios)) } ?? .null), ("seed", .int(run.header.seed)),
      ("status", .int(Int64(run.status))), ("complete", .bool(run.trailer != nil)), ("outcome", run.outcome),
      ("events", .int(run.lastSeq)), ("endUs", .int(run.trailer?.t ?? run.lastUs)),
      ("allowanceUs", profile.map { .int($0.backgroundTaskAllowance_us) } ?? .null),
      ("replay", .string(id.replayCommand(log: log))), ("rerun", .string(ShellCommand.line(rerun))),
    ])
    sink.write(TimelinePage.head(title: "lifesim · \(id.scenario)"))
    sink.write("<script type=\"application/json\" id=\"meta\">" + safe(meta.canonicalText) + "</script>")
    sink.write("<script type=\"application/json\" id=\"rows\">[")
    var first = true
    for row in run.rows where isShown(row.kind) {
      let cells: [JSONValue] = [
        .int(row.seq), .int(row.t), .string(row.kind.rawValue), .string(row.name), row.target.map(JSONValue.string) ?? .null,
        row.depth.map(JSONValue.int) ?? .null, row.durationUs.map(JSONValue.int) ?? .null, row.at.map(JSONValue.string) ?? .null,
        .string(row.details.canonicalText), .bool(row.killed), .bool(row.isFlag),
      ]
      sink.write((first ? "" : ",") + safe(JSONValue.array(cells).canonicalText))
      first = false
    }
    sink.write("]</script>")
    sink.write("<script type=\"application/json\" id=\"intervals\">[")
    first = true
    for s in run.intervals {
      let cells: [JSONValue] = [.string(s.layer), .string(s.state), .int(s.startSeq), .int(s.startUs), .int(s.endSeq), .int(s.endUs)]
      sink.write((first ? "" : ",") + safe(JSONValue.array(cells).canonicalText))
      first = false
    }
    sink.write("]</script>")
    sink.write(TimelinePage.script)
    sink.write("</body></html>")
  }

  /// JSON text that cannot end the `<script>` element it sits in.
  private static func safe(_ json: String) -> String { json.replacing("</", with: "<\\/") }
}
