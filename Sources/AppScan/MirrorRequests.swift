import Lifecycle

/// The BGTask requests the emitted app submits, one per registered identifier, of the kind the
/// Swift makes (`BGAppRefreshTaskRequest` or `BGProcessingTaskRequest`; a refresh when the scan
/// found none), within what iOS lets be pending at once: 1 refresh and 10 processing requests.
///
/// Where a kind has more identifiers than that, each one's submit is a choice, `"submit ID"`:
/// a run submits the first ones by default, and the battery's background case of any other
/// identifier submits that one instead, so every identifier's task can run.
package struct MirrorRequests: Sendable {
  /// The identifiers submitted, in registration order, with their kind.
  package private(set) var submitted: [(identifier: String, kind: String)] = []
  /// The identifiers registered but never submitted, with why.
  package private(set) var withheld: [(identifier: String, why: String)] = []
  /// The submitted identifiers whose submit is a choice, with whether a run submits it by default.
  private var alternatives: [(identifier: String, kind: String, byDefault: Bool)] = []

  /// iOS's limits on pending requests, by kind.
  static let pendingLimits = ["refresh": 1, "processing": 10]

  package init(_ report: ScanReport) {
    var seen: Set<String> = []
    for registration in report.registrations {
      guard let identifier = registration.identifier, seen.insert(identifier).inserted else { continue }
      submitted.append((identifier, report.requestKinds[identifier] ?? "refresh"))
    }
    for (kind, limit) in Self.pendingLimits.sorted(by: { $0.key < $1.key }) {
      let ofKind = submitted.filter { $0.kind == kind }
      guard ofKind.count > limit else { continue }
      // A site names the identifier: one a site cannot hold is never submitted.
      for request in ofKind where ForcedChoices.problem(site: Self.site(request.identifier)) != nil {
        withheld.append((request.identifier, "only \(Self.pendingText(kind)) pending at once, and its identifier cannot name a choice"))
      }
      let choosable = ofKind.filter { request in !withheld.contains { $0.identifier == request.identifier } }
      for (index, request) in choosable.enumerated() { alternatives.append((request.identifier, kind, index < limit)) }
    }
    submitted.removeAll { request in withheld.contains { $0.identifier == request.identifier } }
  }

  /// The kind submitted for an identifier, nil when it is never submitted.
  package func kind(of identifier: String) -> String? { submitted.first { $0.identifier == identifier }?.kind }

  /// The choice an identifier's submit is under, nil when the app always submits it.
  package func choiceSite(of identifier: String) -> String? {
    alternatives.contains { $0.identifier == identifier } ? Self.site(identifier) : nil
  }

  /// The outcome of every submit choice in a run: the default ones, or, for the run of
  /// `identifier`'s task, that one submitted in place of the last default of its kind.
  package func choices(running identifier: String? = nil) -> [(site: String, value: Bool)] {
    let running = alternatives.first { $0.identifier == identifier }
    let replaced = running.flatMap { run in run.byDefault ? nil : alternatives.last { $0.kind == run.kind && $0.byDefault }?.identifier }
    return alternatives.map { alternative in
      (Self.site(alternative.identifier), alternative.identifier == identifier || (alternative.byDefault && alternative.identifier != replaced))
    }
  }

  /// "1 refresh request is", "10 processing requests are": what iOS lets be pending.
  static func pendingText(_ kind: String) -> String {
    let limit = pendingLimits[kind] ?? 1
    return "\(limit) \(kind) request\(limit == 1 ? " is" : "s are")"
  }

  private static func site(_ identifier: String) -> String { "submit " + identifier }
}
