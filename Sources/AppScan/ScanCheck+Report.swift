import EventStore
import JSON
import Render
import Suite

/// What `--check` reports: its text lines, its member of the `--json` end line, its exit status.
extension ScanCheck {
  /// The human report of the runs: what the matrix was, a line per case that did not pass, the
  /// runs' diagnostics, what did not run, and the counts. `folderRemoved`: the battery ran in a
  /// temporary folder, gone by the time the report is read, which places are shown without.
  /// `target`: the app's, when the scan checked several.
  package func textLines(_ outcome: Outcome, scenes: Bool, folderRemoved: Bool, target: String? = nil) -> [String] {
    let scenarios = Set(outcome.results.map(\.file)).count
    var lines = ["check\(target.map { " " + TerminalText.visible($0) } ?? ""): \(scenarios) scenario\(scenarios == 1 ? "" : "s") on iOS \(ios.map(String.init).joined(separator: ", "))"
      + " × SDK \(sdks.map(String.init).joined(separator: ", ")), \(scenes ? "with scenes" : "without scenes")"]
    // A condition forced false fails its cases alike: the first says how, the rest are counted.
    var variantFailures: [String: Int] = [:]
    for r in outcome.results where r.status == .failed && !r.choices.isEmpty { variantFailures[r.message ?? "", default: 0] += 1 }
    for r in outcome.results {
      if r.status == .failed, !r.choices.isEmpty {
        guard let n = variantFailures.removeValue(forKey: r.message ?? "") else { continue }
        if n > 1 { lines.append("✘ \(TerminalText.visible(r.name)) and \(n - 1) more with a condition forced false: "
                                + TerminalText.visible(r.message ?? "")); continue }
      }
      let name = TerminalText.visible(r.name)
      let at = r.at.map { at in folderRemoved ? Self.placeInBattery(at) : at }
      let message = TerminalText.visible((r.message ?? "") + (at.map { "  (\($0))" } ?? ""))
      switch r.status {
      case .passed: continue
      case .failed: lines.append("✘ \(name): \(message)")
      case .error: lines.append("! \(name) (script error): \(message)")
      case .skipped: lines.append("- \(name) (skipped: \(message))")
      }
    }
    for (d, cases) in outcome.diagnostics {
      let more = cases.count > 1 ? " and \(cases.count - 1) more" : ""
      lines.append("⚠ \(d.code): \(TerminalText.visible(d.message))  [\(TerminalText.visible(cases[0]))\(more)]")
    }
    lines += outcome.notRun.map { "- \(TerminalText.visible($0))" }
    lines.append(HumanReport.summary(outcome.summary, wallUs: nil))
    return lines
  }

  /// A place in the battery's folder, `check/cold_launch.lua:6`, whatever came before it (the
  /// temporary folder, or Lua's `...` where it shortened a long path).
  package static func placeInBattery(_ at: String) -> String {
    guard let folder = at.lastRange(of: "/\(batteryFolder)/") else { return at }
    return batteryFolder + "/" + at[folder.upperBound...]
  }

  /// The `check` member of `--json`'s end line; `diagnostics`: the count when the outcome merges
  /// several apps' (each app's diagnostics counted apart), else the outcome's own.
  package static func endMember(_ outcome: Outcome, diagnostics: Int? = nil) -> (String, JSONValue) {
    let s = outcome.summary
    return ("check", .object([
      ("cases", .int(Int64(s.cases))), ("passed", .int(Int64(s.passed))), ("failed", .int(Int64(s.failed))),
      ("skipped", .int(Int64(s.skipped))), ("errors", .int(Int64(s.errors))),
      ("diagnostics", .int(Int64(diagnostics ?? outcome.diagnostics.count))), ("not_run", .array(outcome.notRun.map { .string($0) })),
    ]))
  }

  /// The exit status of a scan with `--check`: the scan's trouble (an input it cannot read, no
  /// app), else 1 when the scan or a run found something. A case not run is listed, not trouble.
  package static func status(scan: Int32, _ outcome: Outcome?) -> Int32 {
    guard let outcome else { return scan }
    // Every case refused: the battery checked nothing, which is trouble, not a pass.
    if scan == Status.trouble || (outcome.results.isEmpty && outcome.refused > 0) { return Status.trouble }
    return scan == Status.ok && outcome.findings == 0 ? Status.ok : Status.failed
  }
}
