import EventStore
import JSON

/// `lifesim scan --compare BEFORE AFTER`: each app target of BEFORE paired with AFTER's of the
/// same name (one app on each side pairs whatever their names), and what the migration changed.
package struct MigrationReport: Sendable {
  package private(set) var changes: [MigrationChange] = []
  /// Targets found on one side only, with the side.
  package private(set) var unpaired: [String] = []

  /// Compares two scans; places become relative to the tree each side was read from.
  package init(before: ScanResult, beforeRoot: String, after: ScanResult, afterRoot: String) {
    var pairs: [(ScanReport, ScanReport)] = []
    if before.apps.count == 1, after.apps.count == 1 {
      pairs = [(before.apps[0], after.apps[0])]
    } else {
      for app in before.apps {
        if let match = after.apps.first(where: { $0.target == app.target }) { pairs.append((app, match)) } else { unpaired.append("\(app.target): in BEFORE only") }
      }
      unpaired += after.apps.filter { app in !before.apps.contains { $0.target == app.target } }.map { "\($0.target): in AFTER only" }
    }
    for (old, new) in pairs {
      changes += MigrationComparison.changes(before: old, after: new).map {
        MigrationChange(kind: $0.kind, regression: $0.regression, target: $0.target,
                        before: $0.before.map { Self.relative($0, to: beforeRoot) }, after: $0.after.map { Self.relative($0, to: afterRoot) },
                        message: $0.message)
      }
    }
  }

  /// A place with its file from the root of its tree.
  static func relative(_ place: SourcePlace, to root: String) -> SourcePlace {
    let prefix = root.hasSuffix("/") ? root : root + "/"
    let file = root == "." ? (place.file.hasPrefix("./") ? String(place.file.dropFirst(2)) : place.file)
      : (place.file.hasPrefix(prefix) ? String(place.file.dropFirst(prefix.count)) : place.file)
    return SourcePlace(file: file, line: place.line)
  }

  package var regressions: Int { changes.filter(\.regression).count }
  /// 1 when a regression is found, else 0 (trouble is the command's).
  package var status: Int32 { regressions > 0 ? 1 : 0 }

  /// `{"kind":"change","change":…,"regression":…,"before":{"file","line"}|null,"after":…,"target":…,"message":…,"confirmed":false,"why":…}`.
  package var jsonLines: [JSONValue] {
    changes.map { change in
      .object([
        ("kind", .string("change")), ("change", .string(change.kind.rawValue)), ("regression", .bool(change.regression)),
        ("before", Self.json(change.before)), ("after", Self.json(change.after)), ("target", .string(change.target)),
        ("message", .string(change.message)), ("confirmed", .bool(false)), ("why", .string(Self.unconfirmed)),
      ])
    }
  }

  /// Why no change carries a run's confirmation yet.
  static let unconfirmed = "static comparison: runs of both mirrors are not made yet"

  private static func json(_ place: SourcePlace?) -> JSONValue {
    place.map { .object([("file", .string($0.file)), ("line", .int(Int64($0.line)))]) } ?? .null
  }

  /// The end line's members after `kind`, `command` and `status`.
  package var endMembers: [(String, JSONValue)] {
    [("changes", .int(Int64(changes.count))), ("regressions", .int(Int64(regressions)))]
      + (unpaired.isEmpty ? [] : [("unpaired", .array(unpaired.map(JSONValue.string)))])
  }

  /// Regressions first, then moves, each with its two places; then what could not be paired.
  package var textLines: [String] {
    var lines: [String] = []
    for regression in [true, false] {
      let group = changes.filter { $0.regression == regression }
      guard !group.isEmpty else { continue }
      lines.append(regression ? "\(group.count) regression\(group.count == 1 ? "" : "s"):" : "\(group.count) correct move\(group.count == 1 ? "" : "s"):")
      for change in group {
        lines.append("\(change.target): \(change.kind.rawValue): \(change.message)")
        lines.append("  before: \(Self.text(change.before))  after: \(Self.text(change.after))")
      }
    }
    if changes.isEmpty { lines.append("no lifecycle change") }
    lines += unpaired.map { "not compared: \($0)" }
    return lines.map { TerminalText.visible($0) }
  }

  private static func text(_ place: SourcePlace?) -> String { place.map { "\($0.file):\($0.line)" } ?? "none" }
}
