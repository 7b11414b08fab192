import JSON
import RunComparison

/// How `replay --verify` and `replay --app` report their verdict, once it is not trouble.
extension ReplayVerdict {
  /// The lines on standard output for the log at `log`.
  package func text(log: String) -> [String] {
    switch finding {
    case .trouble: return []
    case let .same(failedDiagnostic):
      return ["\(log): \(app == nil ? "identical" : "same"): \(events) events re-ran as recorded"]
        + (failedDiagnostic.map { ["Failed: diagnostic \($0) (--strict)."] } ?? [])
    case let .departed(d, _):
      return [d.text(departs: app != nil)] + (changedApp.map { changed in app.map { [changed.text(app: $0, seed: seed)] } ?? [] } ?? [])
    }
  }

  /// The members of `--json`'s end line (docs/json.md).
  package var endMembers: [(String, JSONValue)] {
    switch finding {
    case .trouble: return []
    case let .same(failedDiagnostic):
      return [("verdict", .string(app == nil ? "identical" : "same")), ("events", .int(events))]
        + (failedDiagnostic.map { [("diagnostic", .string($0))] } ?? [])
    case let .departed(d, stopped):
      return [("verdict", .string(app == nil ? "diverged" : "departs")), ("events", .int(events)), ("divergence", d.json)]
        + (changedApp?.json ?? []) + (stopped.map { [("error", .string($0))] } ?? [])
    }
  }
}
