import EventStore
#if canImport(Glibc)
import Glibc
#endif
import Render

/// The mirror of one scanned app, made once: its `app.lua`, what that lowered from the Swift,
/// and the writer of its scenarios. `--check` reads its choice sites and `--emit-app` writes it.
package struct ScanMirror {
  let writer: LuaAppWriter
  /// `app.lua`'s text.
  package let app: String
  package let summary: MirrorSummary

  /// What the app submits: which request choices a run makes.
  let requests: MirrorRequests

  /// The mirror of `report`, named after its target, citing files relative to `root`.
  package init(_ report: ScanReport, root: String) {
    writer = LuaAppWriter(report: report, name: report.target, root: root)
    (app, summary) = writer.mirror
    requests = MirrorRequests(report)
  }

  /// The `choose` outcomes a scenario declares: the request choices of the default run or of
  /// the run of `identifier`'s task (first: a declaration keeps its first 64), and every
  /// condition true (the app doing the work its Swift does when it can).
  package func choices(running identifier: String? = nil) -> [(site: String, value: Bool)] {
    requests.choices(running: identifier) + summary.choiceSites.map { ($0, true) }
  }
}

/// `lifesim scan --emit-app DIR`: the Lua app that mirrors the scanned Swift and its scenarios.
/// Existing files are never overwritten without `--force` (then nothing is written at all), no
/// file lands on a scanned source, and each file appears whole (written beside it and renamed,
/// as every `-o` is): a failed write leaves what was there before.
package enum ScanEmit {
  /// Writes the mirror's files, and `battery` (file names and texts) into `ScanCheck.batteryFolder`;
  /// returns their paths and what the app lowered from the Swift, or the message of what went
  /// wrong. `removed` is told of each stale battery scenario removed (with `force`), as it is removed.
  package static func write(_ mirror: ScanMirror, into directory: String, battery: [(String, String)] = [], force: Bool,
                            removed: (String) -> Void = { _ in }) -> Result<(paths: [String], mirror: MirrorSummary), ScanTrouble> {
    let report = mirror.writer.report
    let named: [(String, String)] = [("app.lua", mirror.app)] + mirror.writer.scenarios(choosing: mirror.choices()).map { ($0.name, $0.text) }
      + battery.map { (ScanCheck.batteryFolder + "/" + $0.0, $0.1) }
    let files = named.map { (directory + "/" + $0.0, $0.1) }
    for folder in [directory] + (battery.isEmpty ? [] : [directory + "/" + ScanCheck.batteryFolder]) {
      if let error = POSIXFile.makeDirectory(folder), !POSIXFile.alreadyExists(error) {
        return .failure(ScanTrouble("\(folder): cannot create the folder: \(POSIXFile.describe(error.code))"))
      }
    }
    // Every file is checked before any is written (a link that leads nowhere is there too).
    for (path, _) in files where !force && POSIXFile.existsWithoutFollowing(path) {
      return .failure(ScanTrouble("\(path): already exists; --emit-app writes nothing over existing files without --force"))
    }
    if force, !battery.isEmpty {
      removeStaleBattery(in: directory + "/" + ScanCheck.batteryFolder, keeping: Set(battery.map(\.0)), removed: removed)
    }
    let inputs = report.files.swift + report.files.infoPlists + report.files.storyboards + report.files.projects
    var sinks: [FileSink] = []
    do {
      for (path, text) in files {
        let sink = try FileSink(path: path, overwrite: force, inputs: inputs)
        sinks.append(sink)
        sink.write(text.hasSuffix("\n") ? String(text.dropLast()) : text)
      }
      for sink in sinks { try sink.commit() }
    } catch {
      sinks.forEach { $0.discard() }
      return .failure(ScanTrouble("\(error)"))
    }
    return .success((files.map(\.0), mirror.summary))
  }

  /// The first line of every scenario the battery writes.
  package static let batteryHeader = "-- Written by `lifesim scan --check` from its battery"

  /// With `--force`: removes the battery's scenarios an earlier emit wrote into `folder` that this
  /// one does not (an app that no longer registers a task). A file is the battery's only when it
  /// opens with its header; no other file is touched, and a `check` that is a link is not entered.
  private static func removeStaleBattery(in folder: String, keeping: Set<String>, removed: (String) -> Void) {
    guard case .success(S_IFDIR) = POSIXFile.fileTypeWithoutFollowing(folder) else { return }
    for name in POSIXFile.directoryEntries(folder) ?? [] where name.hasSuffix(".lua") && !keeping.contains(name) {
      let path = folder + "/" + name
      guard POSIXFile.isRegularFile(path), let bytes = POSIXFile.readPrefix(path, count: batteryHeader.utf8.count),
            bytes.elementsEqual(batteryHeader.utf8) else { continue }
      if POSIXFile.remove(path) == nil { removed(path) }
    }
  }
}
