import EventStore
import JSON

/// Two runs of one scenario that differ (`lifesim test --compare`): the callbacks one delivers
/// more often than the other, the outcome's changes, the diagnostics that are new, and where
/// the events first part.
package struct ComparisonChange {
  package let name: String, file: String
  package let from: CaseResult, to: CaseResult
  /// `+ restoreInteractionStateWith`, `- viewDidAppear`, `- x + y`; nil: the events agree.
  package let step: String?
  /// The last event both runs share before the step.
  package let after: String?
  /// Outcome rows that differ: (row, from, to).
  package let outcome: [(String, String, String)]
  /// Callbacks `to` delivers more often than `from`, with how many more; and the reverse.
  package let appeared: [(String, Int)], disappeared: [(String, Int)]
  /// Diagnostic codes `to` notes more often than `from`, with how many more.
  package let diagnostics: [(String, Int)]

  /// Both runs' profiles, saying only what differs and what both lack: `iOS 12 → 13`,
  /// `iOS 17: no scenes → scenes`, `iOS 12 (no scenes) → 13 (scenes)`, `iOS 14 → 15, no scenes`,
  /// `iOS 27: SDK 26 → 27, no scenes`.
  package var pairText: String { Self.pairText(from: from, to: to) }

  /// The profiles of runs `from` and `to`, as `pairText` says them.
  package static func pairText(from: CaseResult, to: CaseResult) -> String {
    func scenes(_ r: CaseResult) -> String { r.scenes ? "scenes" : "no scenes" }
    if let a = from.sdk, let b = to.sdk, a != b { return "iOS \(from.ios): SDK \(a) → \(b)" + (from.scenes ? "" : ", no scenes") }
    if from.ios == to.ios { return "iOS \(from.ios): \(scenes(from)) → \(scenes(to))" }
    if from.scenes != to.scenes { return "iOS \(from.ios) (\(scenes(from))) → \(to.ios) (\(scenes(to)))" }
    return "iOS \(from.ios) → \(to.ios)" + (from.scenes ? "" : ", no scenes")
  }

  /// The outcome's changes, the status first: `error → passed; final state: a → b`.
  package var outcomeText: String? {
    var changes: [String] = []
    if from.status != to.status { changes.append("\(from.status.rawValue) → \(to.status.rawValue)") }
    changes += outcome.map { "\($0.0): \($0.1) → \($0.2)" }
    return changes.isEmpty ? nil : changes.joined(separator: "; ")
  }

  /// The first divergence as the report names it: `- x + y (after z)`, or `the same events`.
  package var divergenceText: String { step.map { $0 + (after.map { " (after \($0))" } ?? "") } ?? "the same events" }

  /// A run's profile in a `comparison` or `notCompared` line: `ios`, `scenes`, and `sdk` with `sdk=A,B`.
  package static func runJSON(_ r: CaseResult) -> JSONValue {
    .object([("ios", .int(Int64(r.ios))), ("scenes", .bool(r.scenes))] + (r.sdk.map { [("sdk", .int(Int64($0)))] } ?? []))
  }

  package static func countsText(_ counts: [(String, Int)]) -> String {
    counts.map { "\($0.0) ×\($0.1)" }.joined(separator: ", ")
  }

  /// The human report: the scenario and the pair, then one line per kind of change, the first
  /// divergence last.
  package var text: String {
    var lines = ["\(TerminalText.visible(name)): \(pairText)"]
    if !appeared.isEmpty { lines.append("  appeared: " + Self.countsText(appeared)) }
    if !disappeared.isEmpty { lines.append("  disappeared: " + Self.countsText(disappeared)) }
    if let outcomeText { lines.append("  outcome: " + outcomeText) }
    if !diagnostics.isEmpty { lines.append("  new diagnostics: " + Self.countsText(diagnostics)) }
    lines.append("  first divergence: " + divergenceText)
    return lines.joined(separator: "\n")
  }

  /// The `comparison` line of `lifesim test --json` (docs/json.md).
  package func json(axis: ComparisonAxis) -> JSONValue {
    let run = Self.runJSON
    func counts(_ c: [(String, Int)]) -> JSONValue { .object(c.map { ($0.0, .int(Int64($0.1))) }) }
    let divergence: JSONValue = step.map { .object([("step", .string($0)), ("after", after.map(JSONValue.string) ?? .null)]) } ?? .null
    return .object([
      ("kind", .string("comparison")), ("axis", .string(axis.text)), ("scenario", .string(name)), ("file", .string(file)),
      ("from", run(from)), ("to", run(to)),
      ("status", .object([("from", .string(from.status.rawValue)), ("to", .string(to.status.rawValue))])),
      ("outcome", .object(outcome.map { ($0.0, .object([("from", .string($0.1)), ("to", .string($0.2))])) })),
      ("appeared", counts(appeared)), ("disappeared", counts(disappeared)),
      ("diagnostics", .array(diagnostics.map { .object([("code", .string($0.0)), ("count", .int(Int64($0.1)))]) })),
      ("firstDivergence", divergence),
    ])
  }
}

/// A pair of runs `lifesim test --compare` could not compare, and why: a half stopped on a
/// script error before its log began, or a log cannot be read. The other pairs are compared all
/// the same.
package struct UncomparedPair {
  package let name: String, file: String
  package let from: CaseResult, to: CaseResult
  package let reason: String

  /// The human report: the scenario and the pair, then why they were not compared.
  package var text: String {
    "\(TerminalText.visible(name)): \(ComparisonChange.pairText(from: from, to: to))\n  not compared: \(TerminalText.visible(reason))"
  }

  /// The `notCompared` line of `lifesim test --json` (docs/json.md).
  package func json(axis: ComparisonAxis) -> JSONValue {
    .object([("kind", .string("notCompared")), ("axis", .string(axis.text)), ("scenario", .string(name)), ("file", .string(file)),
             ("from", ComparisonChange.runJSON(from)), ("to", ComparisonChange.runJSON(to)), ("reason", .string(reason))])
  }
}
