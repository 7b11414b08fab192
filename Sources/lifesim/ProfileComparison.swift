import EventStore
import Lifecycle
import RunComparison
import Suite

#if canImport(Glibc)
import Glibc
#endif

/// `lifesim test --compare-profiles`: what changes from one profile to the next. Every case
/// keeps its log; for each scenario (and scenes variant), each pair of neighbouring profiles
/// that ran is compared with `diff`'s engine, and the pairs whose runs differ are reported.
struct ProfileComparison {
  /// Where every case's log goes: --logs DIR, or a temporary folder removed at the end.
  let directory: String
  private let temporary: Bool
  /// --keep all: the logs of passing cases stay in --logs DIR too.
  private let keepPassing: Bool

  init(logs: String?, keepPassing: Bool) throws(SuiteError) {
    self.keepPassing = keepPassing
    if let logs {
      directory = logs
      temporary = false
      return
    }
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(base)/lifesim-compare-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else {
      throw SuiteError("\(base): cannot create a temporary folder for the logs: \(String(cString: strerror(errno)))")
    }
    directory = String(cString: made)
    temporary = true
  }

  /// One pair of neighbouring profiles whose runs differ.
  struct Change {
    let name: String, file: String, sceneless: Bool
    let from: CaseResult, to: CaseResult
    /// `+ restoreInteractionStateWith`, `- viewDidAppear`, `- x + y`; nil: the events agree.
    let step: String?
    /// The last event both runs share before the step.
    let after: String?
    /// Outcome rows that differ: (row, from, to).
    let outcome: [(String, String, String)]

    var text: String {
      var line = "\(name)\(sceneless ? " [no scenes]" : ""): iOS \(from.ios) → \(to.ios): "
      line += step.map { $0 + (after.map { " (after \($0))" } ?? "") } ?? "the same events"
      var changes: [String] = []
      if from.status != to.status { changes.append("\(from.status.rawValue) → \(to.status.rawValue)") }
      changes += outcome.map { "\($0.0): \($0.1) → \($0.2)" }
      return changes.isEmpty ? line : line + "\n  outcome: " + changes.joined(separator: "; ")
    }

    var json: JSONValue {
      var members: [(String, JSONValue)] = [
        ("kind", .string("profileChange")), ("name", .string(name)), ("file", .string(file)),
        ("sceneless", .bool(sceneless)), ("from", .int(Int64(from.ios))), ("to", .int(Int64(to.ios))),
      ]
      if let step { members.append(("step", .string(step))) }
      if let after { members.append(("after", .string(after))) }
      members.append(("status", .object([("from", .string(from.status.rawValue)), ("to", .string(to.status.rawValue))])))
      members.append(("outcome", .object(outcome.map { ($0.0, .object([("from", .string($0.1)), ("to", .string($0.2))])) })))
      return .object(members)
    }
  }

  /// The changes, scenario by scenario in case order, oldest profile first.
  func changes(_ results: [CaseResult]) -> [Change] {
    var groups: [String: [CaseResult]] = [:]
    var order: [String] = []
    for r in results where r.logPath != nil && r.status != .skipped {
      let key = "\(r.file)\u{0}\(r.sceneless)"
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(r)
    }
    var found: [Change] = []
    for key in order {
      let runs = (groups[key] ?? []).sorted { $0.ios < $1.ios }
      for (a, b) in zip(runs, runs.dropFirst()) {
        if let change = compare(a, b) { found.append(change) }
      }
    }
    return found
  }

  private func compare(_ a: CaseResult, _ b: CaseResult) -> Change? {
    guard let pathA = a.logPath, let pathB = b.logPath,
          let logA = try? LogScanner(path: pathA), let logB = try? LogScanner(path: pathB) else { return nil }
    var differ = EventDiffer(context: 1, ignoreTime: false)
    var first: EventDiffer.Hunk?
    do {
      try differ.run(a: logA, b: logB) { hunk in if first == nil { first = hunk } }
    } catch {
      return nil
    }
    let outcome = OutcomeComparison(a: logA.ending, b: logB.ending).differingRows
    guard first != nil || !outcome.isEmpty || a.status != b.status else { return nil }
    var step: String?, after: String?
    if let lines = first?.lines {
      let changed = lines.drop { $0.side == .same }
      let removed = changed.first { $0.side == .removed }.map { "- " + label($0) }
      let added = changed.first { $0.side == .added }.map { "+ " + label($0) }
      step = [removed, added].compactMap { $0 }.joined(separator: " ")
      after = lines.prefix { $0.side == .same }.last.map(label)
    }
    // The case name without its last " [iOS …]": a scenario's own name may hold brackets.
    let name = a.name.lastIndex(of: "[").map { String(a.name[..<$0].dropLast()) } ?? a.name
    return Change(name: name, file: a.file, sceneless: a.sceneless, from: a, to: b, step: step, after: after, outcome: outcome)
  }

  /// A short name for an event: a callback's or a verb's name, else its trace text.
  private func label(_ line: EventDiffer.Line) -> String {
    guard let decoded = try? line.decoded() else { return "?" }
    let body = decoded.event.body
    if case let .callbackDelivered(callback, _, _, _, _) = body { return callback.key }
    if case let .returned(name, _, _, _, _) = body { return String(name.prefix { $0 != "(" }) }
    if case let .inputPerformed(input, _) = body { return input.verb }
    var trace = TraceFormatter()
    let text = trace.line(seq: decoded.seq, decoded.event).withoutColourCodes.dropFirst(13)
    return String(text.drop { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
  }

  /// Whether `r`'s log is removed once the comparison is done: every log of a temporary
  /// folder; in --logs DIR without --keep all, those of cases that passed.
  private func removes(_ r: CaseResult) -> Bool { temporary || (!keepPassing && r.status == .passed) }

  /// A result as reported: without a log that will not be kept.
  func reported(_ r: CaseResult) -> CaseResult {
    var r = r
    if removes(r) { r.logPath = nil }
    return r
  }

  /// Removes the logs nobody asked for; returns the results as reported.
  func finish(_ results: [CaseResult]) -> [CaseResult] {
    for r in results where removes(r) {
      if let path = r.logPath { unlink(path) }
    }
    if temporary { rmdir(directory) }
    return results.map(reported)
  }
}
