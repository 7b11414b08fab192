import JSON
import Lifecycle
import ScriptHost

/// `report.json`: what an exploration (or a merge of shards) did. Every member is a function
/// of the seed and the budget, so the same exploration gives the same bytes; `seconds` is the
/// virtual time simulated (the wall time goes to the terminal only).
public struct ExploreReport: Equatable {
  public var runs: Int64
  public var events: Int64
  public var virtualUs: Int64
  public var seed: Int64
  /// `1/1`, `2/4`, or `merged` for a merge of every shard.
  public var shard: String
  public var reached: [String]
  public var neverReached: [String]
  public var callbacks: [String]
  public var findings: [Entry]

  /// One finding as the report lists it.
  public struct Entry: Equatable {
    public var signature: String
    public var reason: String
    public var verbs: Int64
    public var scenario: String
    public var run: Int64
    /// Whether `lifesim run` of the written scenario failed (exit 1), as it must.
    public var reproduces: Bool
  }

  public init(_ result: ExploreResult, scenarios: [String], reproduces: [Bool]) {
    runs = Int64(result.runs); events = result.events; virtualUs = result.virtualUs; seed = result.seed
    shard = result.shard.text
    reached = result.covered.intersection(result.total).sorted().map(\.text)
    neverReached = result.total.subtracting(result.covered).sorted().map(\.text)
    callbacks = result.callbacks.sorted()
    findings = result.findings.indices.map { i in
      let f = result.findings[i]
      return Entry(signature: f.signature.text, reason: f.signature.reason, verbs: Int64(f.inputs.count),
                   scenario: scenarios[i], run: Int64(f.run), reproduces: reproduces[i])
    }
  }

  public var json: JSONValue {
    .object([
      ("runs", .int(runs)), ("events", .int(events)),
      ("seconds", .double(Double(virtualUs) / 1_000_000)), ("virtual_us", .int(virtualUs)),
      ("seed", .int(seed)), ("shard", .string(shard)),
      ("coverage", .object([
        ("covered", .int(Int64(reached.count))), ("total", .int(Int64(reached.count + neverReached.count))),
        ("never_reached", .array(neverReached.map(JSONValue.string))),
        ("reached", .array(reached.map(JSONValue.string))),
        ("callbacks", .array(callbacks.map(JSONValue.string))),
      ])),
      ("findings", .array(findings.map { f in
        .object([("signature", .string(f.signature)), ("reason", .string(f.reason)), ("verbs", .int(f.verbs)),
                 ("scenario", .string(f.scenario)), ("run", .int(f.run)), ("reproduces", .bool(f.reproduces))])
      })),
    ])
  }

  /// Shard reports merged: runs, events and time add up, coverage is the union, and of the
  /// findings with one signature the one with fewest verbs (then the earliest run) is kept.
  /// Each kept finding says which report it came from (an index into `reports`). `files`
  /// names the reports in errors (a sum too large for a whole number).
  public static func merge(_ reports: [ExploreReport], files: [String]) throws(ScriptError) -> (ExploreReport, sources: [Int]) {
    guard var merged = reports.first else { throw ScriptError("explore merge: no reports") }
    for r in reports.dropFirst() where r.seed != merged.seed {
      throw ScriptError("explore merge: the reports come from different seeds (\(merged.seed) and \(r.seed))")
    }
    let all = Set(reports.flatMap { $0.reached + $0.neverReached })
    let reachedSet = Set(reports.flatMap(\.reached))
    merged.runs = try sum(reports, \.runs, "runs", files: files)
    merged.events = try sum(reports, \.events, "events", files: files)
    merged.virtualUs = try sum(reports, \.virtualUs, "virtual_us", files: files)
    merged.shard = "merged"
    merged.reached = reachedSet.sorted()
    merged.neverReached = all.subtracting(reachedSet).sorted()
    merged.callbacks = Set(reports.flatMap(\.callbacks)).sorted()
    var best: [String: (entry: Entry, source: Int)] = [:]
    for (i, r) in reports.enumerated() {
      for f in r.findings {
        if let kept = best[f.signature], (kept.entry.verbs, kept.entry.run) <= (f.verbs, f.run) { continue }
        best[f.signature] = (f, i)
      }
    }
    let kept = best.values.sorted { ($0.entry.reason, $0.entry.signature) < ($1.entry.reason, $1.entry.signature) }
    merged.findings = kept.map(\.entry)
    return (merged, kept.map(\.source))
  }

  /// `member` added up over `reports`, checked: the first report whose value takes the sum past
  /// the largest whole number is named.
  private static func sum(_ reports: [ExploreReport], _ member: KeyPath<ExploreReport, Int64>, _ what: String,
                          files: [String]) throws(ScriptError) -> Int64 {
    var total: Int64 = 0
    for (i, report) in reports.enumerated() {
      let (next, overflow) = total.addingReportingOverflow(report[keyPath: member])
      if overflow {
        let file = i < files.count ? files[i] : "report \(i + 1)"
        throw ScriptError("\(file): \(what) adds up to more than \(Int64.max) with the reports before it")
      }
      total = next
    }
    return total
  }
}
