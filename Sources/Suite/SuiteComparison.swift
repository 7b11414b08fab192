import EventStore
#if canImport(Glibc)
import Glibc
#endif
import Lifecycle
import Render
import RunComparison
import LifecycleLog

/// `lifesim test --compare profiles|scenes`: what changes from one profile to the next, or when
/// the app adopts scenes. Every case keeps its log; each pair of runs the axis names is compared
/// with `diff`'s engine and counted (`RunTally`), and the pairs whose runs differ are reported.
package struct SuiteComparison {
  /// Which runs are paired.
  package let axis: ComparisonAxis
  /// Where every case's log goes: --logs DIR, or a temporary folder removed at the end.
  package let directory: String
  private let temporary: Bool
  /// --keep all: the logs of passing cases stay in --logs DIR too.
  private let keepPassing: Bool

  package init(axis: ComparisonAxis, logs: String?, keepPassing: Bool) throws(SuiteError) {
    self.axis = axis
    self.keepPassing = keepPassing
    if let logs {
      directory = logs
      temporary = false
      return
    }
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    switch POSIXFile.makeTemporaryDirectory(prefix: "\(base)/lifesim-compare-") {
    case let .success(made): directory = made
    case let .failure(error):
      throw SuiteError("\(base): cannot create a temporary folder for the logs: \(POSIXFile.describe(error.code))")
    }
    temporary = true
  }

  /// The pairs the axis compares, scenario by scenario in case order: each profile with the
  /// next one run (oldest first), or each run without scenes with the same run with scenes.
  package func pairs(_ results: [CaseResult]) -> [(from: CaseResult, to: CaseResult)] {
    var groups: [String: [CaseResult]] = [:]
    var order: [String] = []
    for r in results where r.logPath != nil && r.status != .skipped {
      let key: String
      switch axis {
      case .scenes: key = "\(r.file)\u{0}\(r.ios)"
      case .sdk: key = "\(r.file)\u{0}\(r.ios)\u{0}\(r.sceneless)"
      case .profiles: key = "\(r.file)\u{0}\(r.sceneless)"
      }
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(r)
    }
    return order.flatMap { key -> [(from: CaseResult, to: CaseResult)] in
      let runs = groups[key] ?? []
      if axis == .scenes {
        guard let a = runs.first(where: { !$0.scenes }), let b = runs.first(where: \.scenes) else { return [] }
        return [(a, b)]
      }
      if case let .sdk(from, to) = axis {
        guard let a = runs.first(where: { $0.sdk == from }), let b = runs.first(where: { $0.sdk == to }) else { return [] }
        return [(a, b)]
      }
      let sorted = runs.sorted { $0.ios < $1.ios }
      return Array(zip(sorted, sorted.dropFirst()))
    }
  }

  /// What the report says when no pair differs: that none was formed, or that all agree.
  package func noChangeText(pairs: Int) -> String {
    let compared = pairs == 1 ? "1 pair compared" : "\(pairs) pairs compared"
    switch (axis, pairs) {
    case (.scenes, 0): return "Nothing to compare: no scenario ran both without scenes and with them on one iOS."
    case let (.sdk(a, b), 0): return "Nothing to compare: no scenario ran with both SDK \(a) and SDK \(b)."
    case let (.sdk(a, b), _): return "No run differs between SDK \(a) and SDK \(b) (\(compared))."
    case (_, 0): return "Nothing to compare: no scenario ran on two profiles."
    case (.scenes, _): return "No run differs between no scenes and scenes (\(compared))."
    default: return "No run differs between neighbouring profiles (\(compared))."
    }
  }

  /// Every pair's change (a pair whose runs agree gives none) and the pairs that could not be
  /// compared, in order. A pair that cannot be read never stops the others: it is named with
  /// why, the error of its half that stopped on a script error, else the read error.
  package func compareAll(_ pairs: [(from: CaseResult, to: CaseResult)]) -> (changes: [ComparisonChange], uncompared: [UncomparedPair]) {
    var changes: [ComparisonChange] = [], uncompared: [UncomparedPair] = []
    for (a, b) in pairs {
      do throws(SuiteError) {
        if let change = try compare(a, b) { changes.append(change) }
      } catch {
        let stopped = [a, b].first { $0.status == .error }
        let reason = stopped.map { "\($0.name) stopped on a script error: \($0.message ?? "no message")" } ?? error.message
        uncompared.append(UncomparedPair(name: Self.scenarioName(a), file: a.file, from: a, to: b, reason: reason))
      }
    }
    return (changes, uncompared)
  }

  /// A case's name without its last " [iOS …]": a scenario's own name may hold brackets.
  private static func scenarioName(_ r: CaseResult) -> String {
    r.name.lastIndex(of: "[").map { String(r.name[..<$0].dropLast()) } ?? r.name
  }

  /// The change from `a` to `b`; nil when their runs agree. A kept log that cannot be read is
  /// trouble, never "no difference": the report would say that nothing changed.
  package func compare(_ a: CaseResult, _ b: CaseResult) throws(SuiteError) -> ComparisonChange? {
    guard let pathA = a.logPath, let pathB = b.logPath else { return nil }
    let logA: LogScanner, logB: LogScanner, tallyA: RunTally, tallyB: RunTally
    var first: EventDiffer.Hunk?
    do {
      logA = try RecordedLog.scanner(pathA)
      logB = try RecordedLog.scanner(pathB)
      var differ = EventDiffer(context: 1, ignoreTime: false)
      try differ.run(a: logA, b: logB) { hunk in if first == nil { first = hunk } }
      tallyA = try RunTally(reading: pathA)
      tallyB = try RunTally(reading: pathB)
    } catch {
      throw SuiteError("cannot compare \(pathA) with \(pathB): \(error)")
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
    return ComparisonChange(name: Self.scenarioName(a), file: a.file, from: a, to: b, step: step, after: after, outcome: outcome,
                            appeared: tallyB.callbacks.more(than: tallyA.callbacks),
                            disappeared: tallyA.callbacks.more(than: tallyB.callbacks),
                            diagnostics: tallyB.diagnostics.more(than: tallyA.diagnostics))
  }

  /// A short name for an event: a callback's or a verb's name, else its trace text.
  private func label(_ line: EventDiffer.Body) -> String {
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
  package func reported(_ r: CaseResult) -> CaseResult {
    var r = r
    if removes(r) { r.logPath = nil }
    return r
  }

  /// Removes the logs nobody asked for; returns the results as reported.
  package func finish(_ results: [CaseResult]) -> [CaseResult] {
    for r in results where removes(r) {
      if let path = r.logPath { POSIXFile.remove(path) }
    }
    if temporary { POSIXFile.removeDirectory(directory) }
    return results.map(reported)
  }
}
