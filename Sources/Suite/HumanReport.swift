import EventStore
import Lifecycle
import ScriptHost

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

  /// `· Scripts/apps/notes.lua: app`, `? tools/old.lua: not a case: calls verbs but has no
  /// scenario{} line` (red when the file is a problem).
  public static func fileLine(_ f: DiscoveredFile, paint: Painter) -> String {
    let mark = f.role == .notACase ? "?" : "·"
    return paint("\(mark) \(f.path): \(f.role.rawValue)\(f.why.map { ": " + $0 } ?? "")", f.isProblem ? "1;31" : "2")
  }

  /// `Files: 55 scenarios, 14 apps, 1 module, 3 not cases.`
  public static func filesSummary(_ files: [DiscoveredFile]) -> String {
    let counts: [(DiscoveredFile.Role, String, String)] = [
      (.scenario, "scenario", "scenarios"), (.app, "app", "apps"), (.module, "module", "modules"), (.notACase, "not a case", "not cases"),
    ]
    let parts = counts.map { role, one, many in
      let n = files.filter { $0.role == role }.count
      return "\(n) \(n == 1 ? one : many)"
    }
    return "Files: " + parts.joined(separator: ", ") + "."
  }

  /// Why a suite in which every case was skipped (or none was planned) is in trouble.
  public static func noCaseRan(_ results: [CaseResult]) -> String {
    var reasons: [String] = []
    for r in results where r.status == .skipped { if let m = r.message, !reasons.contains(m) { reasons.append(m) } }
    let why = reasons.isEmpty ? "" : ": " + reasons.joined(separator: "; ")
    return "no case ran (\(results.count) skipped\(why))"
  }

  /// Why a suite with files that look like cases but cannot run is in trouble, whatever its
  /// cases did: `2 files look like scenarios but cannot run: a.lua (calls verbs but has no scenario{} line), …`.
  public static func problemFiles(_ problems: [DiscoveredFile]) -> String {
    let listed = problems.map { "\($0.path)\($0.why.map { " (" + $0 + ")" } ?? "")" }.joined(separator: ", ")
    let count = problems.count == 1 ? "1 file looks" : "\(problems.count) files look"
    return "\(count) like a scenario but cannot run: \(listed)"
  }

  /// The case's warnings, one line each: `warning: no_expectations: … [name [iOS 17]]`, then
  /// (with `diagnostics`; `-q` leaves them to the failures they cause under `--strict`) its
  /// diagnostics that are not also a warning: `⚠ handler_never_called: … [name [iOS 17]]`.
  public static func warningLines(_ r: CaseResult, diagnostics: Bool = true) -> [String] {
    let warned = !diagnostics ? [] : r.diagnostics.filter { d in !r.warnings.contains { $0.code == d.code && $0.message == d.message } }
    let name = TerminalText.visible(r.name)
    return r.warnings.map { "\($0.line)  [\(name)]" }
      + warned.map { "⚠ \($0.code): \(TerminalText.visible($0.message))  [\(name)]" }
  }

  /// `528 cases: 500 passed, 1 failed, 27 skipped, 0 errors in 0.84 s (virtual time 1234.5 s)`.
  public static func summary(_ s: SuiteSummary, wallUs: Int64?) -> String {
    let counts = "\(s.cases) case\(s.cases == 1 ? "" : "s"): \(s.passed) passed, \(s.failed) failed, \(s.skipped) skipped, \(s.errors) error\(s.errors == 1 ? "" : "s")"
    let wall = wallUs.map { " in \(VirtualTime.formatSeconds2($0)) s" } ?? ""
    return counts + wall + " (virtual time \(VirtualTime.formatSeconds2(s.virtualUs)) s)."
  }
}
