import EventStore
import JSON
import Lifecycle

/// `export --format html`: one self-contained page (inline CSS and JS, no request of any kind)
/// showing a run as swimlanes over virtual time and as a sequence of events; see
/// `TimelinePage` for the page itself. The run's data is embedded as JSON in data blocks
/// (`HTMLText.dataBlock`), which the page's script reads and draws as text, never as markup.
package enum TimelineExport {
  /// Events shown as marks: all but transitions (shown as the lanes' states) and returns
  /// (shown as the callbacks' durations).
  package static func isShown(_ kind: EventKind) -> Bool {
    switch kind {
    case .transition, .return: return false
    case .input, .system, .callback, .call, .notification, .crash, .expect, .note: return true
    }
  }

  package static func write(_ run: RunTable, log: String, to sink: any ExportSink) {
    let id = run.identity
    let profile = try? Profile(json: run.header.profile)
    var plan = RunPlan.CommandLineLayer(ios: profile?.ios, choices: profile?.forcedChoices ?? .init())
    // A header names the SDK where it is not one a run could leave to its default.
    if let profile, run.header.profile["sdk"] != nil { plan.sdk = profile.sdk }
    plan.noScenes = !run.header.scenes && IOSRelease.hasScenes(profile?.ios ?? IOSRelease.firstWithScenes)
    let rerun = RerunCommand(scenario: id.scenarioPath, plan: plan, seed: run.header.seed)
    let meta: JSONValue = .object([
      ("scenario", .string(id.scenario)), ("scenarioPath", .string(id.scenarioPath)), ("app", .string(id.appPath)),
      ("runId", .string(id.id)), ("ios", profile.map { .int(Int64($0.ios)) } ?? .null), ("seed", .int(run.header.seed)),
      ("status", .int(Int64(run.status))), ("complete", .bool(run.trailer != nil)), ("outcome", RunOutcome(run.outcome).json),
      ("events", .int(run.lastSeq)), ("endUs", .int(run.trailer?.t ?? run.lastUs)),
      ("allowanceUs", profile.map { .int($0.backgroundTaskAllowance_us) } ?? .null),
      ("replay", .string(id.replayCommand(log: log))), ("rerun", .string(rerun.line)),
    ])
    // A run that has had several scenes groups its lanes per scene: each row names its scene.
    let scenes = run.state.severalScenesSeen
    let script = scenes ? TimelinePage.sceneScript : TimelinePage.script
    sink.write(TimelinePage.head(title: "lifesim · \(id.scenario)", script: script))
    sink.write(HTMLText.dataBlock(id: "meta", json: meta.canonicalText))
    // Texts repeat (kinds, names, targets, source lines, details): each is written once, in
    // `names`, and the rows and intervals give its index; the page is half the size.
    var names = Names()
    sink.write(HTMLText.dataBlockOpening(id: "rows") + "[")
    var first = true
    for row in run.rows where isShown(row.kind) {
      let cells: [JSONValue] = [
        .int(row.seq), .int(row.t), names.index(row.kind.rawValue), names.index(row.name), names.index(row.target),
        row.depth.map(JSONValue.int) ?? .null, row.durationUs.map(JSONValue.int) ?? .null, names.index(row.at),
        names.index(row.details.canonicalText), .bool(row.killed), .bool(row.isFlag),
      ] + (scenes ? [names.index(row.scene)] : [])
      sink.write((first ? "" : ",") + HTMLText.scriptJSON(JSONValue.array(cells).canonicalText))
      first = false
    }
    sink.write("]</script>")
    sink.write(HTMLText.dataBlockOpening(id: "intervals") + "[")
    first = true
    for s in run.intervals {
      let cells: [JSONValue] = [
        names.index(s.layer), names.index(s.state), .int(s.startSeq), .int(s.startUs), .int(s.endSeq), .int(s.endUs), .bool(s.lastsToEnd),
      ]
      sink.write((first ? "" : ",") + HTMLText.scriptJSON(JSONValue.array(cells).canonicalText))
      first = false
    }
    sink.write("]</script>")
    sink.write(HTMLText.dataBlock(id: "names", json: JSONValue.array(names.texts.map(JSONValue.string)).canonicalText))
    sink.write("<script>" + script + "</script>")
    sink.write("</body></html>")
  }

  /// Each distinct text once, by first use.
  private struct Names {
    private(set) var texts: [String] = []
    private var indexes: [String: Int64] = [:]

    /// The index of `text` in `texts` (null for nil).
    mutating func index(_ text: String?) -> JSONValue {
      guard let text else { return .null }
      if let i = indexes[text] { return .int(i) }
      let i = Int64(texts.count)
      indexes[text] = i
      texts.append(text)
      return .int(i)
    }
  }
}
