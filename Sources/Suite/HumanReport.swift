import EventStore
import Lifecycle

/// The report for a person: a line per case, a block per failure or error, a summary.
public enum HumanReport {
  /// `paint(text, SGR code)` colours on a terminal and returns the text as is elsewhere.
  public typealias Painter = (String, String) -> String

  public static func caseLine(_ r: CaseResult, paint: Painter) -> String {
    // A scenario's name and messages come from scripts: their control characters are shown.
    let name = TerminalText.visible(r.name)
    switch r.status {
    case .passed: return paint("✔", "32") + " \(name)"
    case .failed: return paint("✘ \(name)", "1;31")
    case .error: return paint("! \(name) (script error)", "1;31")
    case .skipped: return paint("- \(name) (skipped: \(TerminalText.visible(r.message ?? "")))", "2")
    }
  }

  /// What failed, where, the trace around it, how to run it alone, and its log. Empty for a pass or a skip.
  public static func failureBlock(_ r: CaseResult, paint: Painter) -> [String] {
    let title: String
    switch r.status {
    case .passed, .skipped: return []
    case .failed: title = "FAILED"
    case .error: title = "ERROR"
    }
    var lines = [paint("\(title) \(TerminalText.visible(r.name))", "1;31") + "  (\(TerminalText.visible(r.file)))"]
    if let message = r.message { lines.append(TerminalText.visible("  " + message + (r.at.map { "  (\($0))" } ?? ""))) }
    if !r.trace.isEmpty {
      lines.append("  trace:")
      lines += r.trace.map { "    " + $0 }  // the command's trace lines, shown visibly already
    }
    lines.append("  reproduce: " + r.reproduce)
    if let log = r.logPath { lines.append("  log: " + log) }
    return lines
  }

  /// `528 cases: 500 passed, 1 failed, 27 skipped, 0 errors in 0.84 s (virtual time 1234.5 s)`.
  public static func summary(_ s: SuiteSummary, wallUs: Int64?) -> String {
    let counts = "\(s.cases) case\(s.cases == 1 ? "" : "s"): \(s.passed) passed, \(s.failed) failed, \(s.skipped) skipped, \(s.errors) error\(s.errors == 1 ? "" : "s")"
    let wall = wallUs.map { " in \(VirtualTime.formatSeconds2($0)) s" } ?? ""
    return counts + wall + " (virtual time \(VirtualTime.formatSeconds2(s.virtualUs)) s)."
  }
}
