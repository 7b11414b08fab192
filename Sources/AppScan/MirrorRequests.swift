/// The BGTask requests the emitted app submits, one per registered identifier, of the kind the
/// Swift makes (`BGAppRefreshTaskRequest` or `BGProcessingTaskRequest`; a refresh when the scan
/// found none), within what iOS lets be pending at once: 1 refresh and 10 processing requests.
/// The battery runs a background task only for an identifier submitted here.
package struct MirrorRequests: Sendable {
  /// The identifiers submitted, in registration order, with their kind.
  package private(set) var submitted: [(identifier: String, kind: String)] = []
  /// The identifiers registered but not submitted, with why.
  package private(set) var withheld: [(identifier: String, why: String)] = []

  /// iOS's limits on pending requests, by kind.
  static let pendingLimits = ["refresh": 1, "processing": 10]

  package init(_ report: ScanReport) {
    var seen: Set<String> = []
    var pending: [String: Int] = [:]
    for registration in report.registrations {
      guard let identifier = registration.identifier, seen.insert(identifier).inserted else { continue }
      let kind = report.requestKinds[identifier] ?? "refresh"
      guard pending[kind, default: 0] < Self.pendingLimits[kind, default: 1] else {
        let first = submitted.first { $0.kind == kind }?.identifier ?? identifier
        withheld.append((identifier, "only \(Self.pendingLimits[kind, default: 1]) \(kind) request\(kind == "refresh" ? " is" : "s are") pending at once, and the mirror submits \"\(first)\"'s"))
        continue
      }
      pending[kind, default: 0] += 1
      submitted.append((identifier, kind))
    }
  }

  /// The kind submitted for an identifier, nil when it is not submitted.
  package func kind(of identifier: String) -> String? { submitted.first { $0.identifier == identifier }?.kind }
}
