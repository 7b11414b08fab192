import JSON
import Lifecycle

/// `--json`: JSON Lines, one object per case, then one summary object.
public enum JSONReport {
  /// `{"kind":"case",…}`; `target`: the app's, when `scan --check` ran several apps' batteries.
  public static func caseLine(_ r: CaseResult, wallTimes: Bool, target: String? = nil) -> String {
    var members: [(String, JSONValue)] = [("kind", .string("case"))] + (target.map { [("target", .string($0))] } ?? []) + [
      ("index", .int(Int64(r.index))), ("name", .string(r.name)), ("file", .string(r.file)),
      ("ios", .int(Int64(r.ios))), ("scenes", .bool(r.scenes)), ("seed", .int(r.seed)),
      ("status", .string(r.status.rawValue)), ("events", .int(r.events)), ("virtualUs", .int(r.virtualUs)),
    ]
    if wallTimes { members.append(("wallUs", .int(r.wallUs))) }
    if let message = r.message { members.append(("message", .string(message))) }
    if let at = r.at { members.append(("at", .string(at))) }
    if r.status == .failed || r.status == .error {
      members.append(("reproduce", .string(r.reproduce)))
      members.append(("trace", .array(r.trace.map { .string($0) })))
    }
    if let log = r.logPath { members.append(("log", .string(log))) }
    if !r.warnings.isEmpty {
      members.append(("warnings", .array(r.warnings.map(\.json))))
    }
    if !r.diagnostics.isEmpty { members.append(("diagnostics", .array(r.diagnostics.map(\.json)))) }
    return JSONValue.object(members).canonicalText
  }

  /// `{"kind":"file","path":…,"role":…}`: what a `.lua` file found under the suite's folders is
  /// (`scenario`, `app`, `module` or `not a case`, then `why` and, for a problem, `"problem":true`).
  public static func fileLine(_ f: DiscoveredFile) -> String {
    var members: [(String, JSONValue)] = [("kind", .string("file")), ("path", .string(f.path)), ("role", .string(f.role.rawValue))]
    if let why = f.why { members.append(("why", .string(why))) }
    if f.isProblem { members.append(("problem", .bool(true))) }
    return JSONValue.object(members).canonicalText
  }

  /// The last line: the counts, the exit status, and (with wall times) the wall-clock time.
  public static func summaryLine(_ s: SuiteSummary, wallUs: Int64?) -> String {
    var members: [(String, JSONValue)] = [
      ("kind", .string("summary")), ("cases", .int(Int64(s.cases))), ("passed", .int(Int64(s.passed))),
      ("failed", .int(Int64(s.failed))), ("skipped", .int(Int64(s.skipped))), ("errors", .int(Int64(s.errors))),
      ("problemFiles", .int(Int64(s.problemFiles))), ("virtualUs", .int(s.virtualUs)), ("exitStatus", .int(Int64(s.exitStatus))),
    ]
    if let wallUs { members.append(("wallUs", .int(wallUs))) }
    return JSONValue.object(members).canonicalText
  }
}
