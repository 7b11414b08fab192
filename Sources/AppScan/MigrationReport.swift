import EventStore
import JSON

/// `lifesim scan --compare BEFORE AFTER`: each app target of BEFORE paired with AFTER's of the
/// same name (one app on each side pairs whatever their names), and what the migration changed.
package struct MigrationReport: Sendable {
  package private(set) var changes: [MigrationChange] = []
  /// Targets found on one side only, with the side.
  package private(set) var unpaired: [String] = []

  /// Compares two scans; places become relative to the tree each side was read from. With
  /// `check`, the battery runs on both mirrors of each pair of apps and confirms each change
  /// (`MigrationCheck`); `commands` name each side as the command line did, and the options
  /// that pick its app (`--target`, `--exclude`).
  package init(before: ScanResult, beforeRoot: String, after: ScanResult, afterRoot: String,
               check: (MigrationCheck, only: String?, commands: (before: String, after: String, options: [String]))? = nil) throws(ScanTrouble) {
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
      let found = MigrationComparison.changes(before: old, after: new)
      var confirmations: [MigrationConfirmation?] = found.map { _ in nil }
      if let (checker, only, commands) = check {
        let target = { (result: ScanResult, app: ScanReport) in result.apps.count > 1 ? ["--target", app.target] : [] }
        let sides = (MigrationCheck.Side(report: old, root: beforeRoot, path: commands.before, options: commands.options + target(before, old)),
                     MigrationCheck.Side(report: new, root: afterRoot, path: commands.after, options: commands.options + target(after, new)))
        let runs = try checker.run(sides.0, sides.1, only: only)
        confirmations = found.map { MigrationCheck.confirmation(of: $0, before: sides.0, after: sides.1, runs: runs) }
        notRun += Self.notRunLines(before: runs.0.notRun, after: runs.1.notRun, target: pairs.count > 1 ? new.target : nil)
      }
      changes += zip(found, confirmations).map { change, confirmation in
        var relative = MigrationChange(kind: change.kind, regression: change.regression, target: change.target,
                                       before: change.before.map { Self.relative($0, to: beforeRoot) },
                                       after: change.after.map { Self.relative($0, to: afterRoot) }, message: change.message,
                                       atLaunch: change.atLaunch)
        relative.confirmation = confirmation
        return relative
      }
    }
  }

  /// With `--check`: the cases not run on each side, with why (a case the model refused among them).
  package private(set) var notRun: [String] = []

  /// `both: …` for what neither side ran for the same reason, then `BEFORE: …` and `AFTER: …`;
  /// with several pairs of apps, each names its target.
  private static func notRunLines(before: [String], after: [String], target: String?) -> [String] {
    let label = { (side: String) in side + (target.map { " " + $0 } ?? "") + ": " }
    let shared = Set(before).intersection(after)
    return before.filter(shared.contains).map { label("both") + $0 }
      + before.filter { !shared.contains($0) }.map { label("BEFORE") + $0 } + after.filter { !shared.contains($0) }.map { label("AFTER") + $0 }
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
        ("message", .string(change.message)),
      ] + Self.confirmationMembers(change.confirmation))
    }
  }

  /// `"confirmed": {"scenario","ios","sdk","shows","before","after"}`, or `false` with `"why"`.
  static func confirmationMembers(_ confirmation: MigrationConfirmation?) -> [(String, JSONValue)] {
    switch confirmation ?? .unconfirmed(why: unconfirmed) {
    case let .confirmed(scenario, ios, sdk, shows, before, after):
      return [("confirmed", .object([
        ("scenario", .string(scenario)), ("ios", .int(Int64(ios))), ("sdk", sdk.map { .int(Int64($0)) } ?? .null),
        ("shows", .string(shows)), ("before", .string(before)), ("after", .string(after)),
      ]))]
    case let .unconfirmed(why):
      return [("confirmed", .bool(false)), ("why", .string(why))]
    }
  }

  /// Why a change carries no run's confirmation without `--check`.
  static let unconfirmed = "static comparison: --check runs both mirrors to confirm it"

  /// The lines under a change in the text report that say what the runs showed.
  static func confirmationText(_ confirmation: MigrationConfirmation?) -> [String] {
    switch confirmation {
    case nil: return []
    case let .confirmed(scenario, ios, sdk, shows, before, after):
      return ["  confirmed by \(scenario) [iOS \(ios)\(sdk.map { ", SDK \($0)" } ?? "")]: \(shows)",
              "    before: \(before)", "    after: \(after)"]
    case let .unconfirmed(why):
      return ["  not confirmed by a run: \(why)"]
    }
  }

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
        if regression { lines += Self.confirmationText(change.confirmation) }
      }
    }
    if changes.isEmpty { lines.append("no lifecycle change") }
    lines += unpaired.map { "not compared: \($0)" }
    lines += notRun.map { "- \($0)" }
    return lines.map { TerminalText.visible($0) }
  }

  private static func text(_ place: SourcePlace?) -> String { place.map { "\($0.file):\($0.line)" } ?? "none" }
}
