import JSON
import Suite

/// `scan --check`: every app a scan found, each app's mirror and battery written into a temporary
/// folder of its own (removed before this returns), run on the matrix, and the app's diagnostics
/// confirmed by its own runs (with several apps, each reproduce line names the app's `--target`);
/// or the one app `--emit-app` wrote into the user's folder.
package struct ScanCheckSession {
  /// One app's runs: its index in the scan's apps, and what the battery did.
  package struct AppRun {
    package let app: Int
    package let outcome: ScanCheck.Outcome

    package init(app: Int, outcome: ScanCheck.Outcome) { self.app = app; self.outcome = outcome }
  }

  let checker: ScanCheck

  package init(_ checker: ScanCheck) { self.checker = checker }

  /// Runs every app's battery (only the case `only` names, when given: an app whose battery lacks
  /// it lists it as not run) and confirms its diagnostics; `command` is `lifesim scan PATH …`.
  package func run(_ result: inout ScanResult, root: String, only: String?, command: [String]) throws(ScanTrouble) -> [AppRun] {
    let has = { (report: ScanReport) in only.map { only in CheckBattery.scenarios(for: report).run.contains { $0.name == only } } ?? true }
    // One app: the battery refuses a case it lacks, listing those it has.
    if let only, result.apps.count > 1, !result.apps.contains(where: has) {
      throw ScanTrouble("--case \(only): no such case in the battery of any of the \(result.apps.count) apps; name one with --target to list its cases")
    }
    var runs: [AppRun] = []
    for index in result.apps.indices {
      let report = result.apps[index]
      if let only, result.apps.count > 1, !has(report) {
        runs.append(AppRun(app: index, outcome: ScanCheck.Outcome(results: [], notRun: ["\(only): not in this app's battery"])))
        continue
      }
      let outcome = try checker.runBattery(of: report, root: root, only: only, findings: report.diagnostics)
      let target = result.apps.count > 1 ? ["--target", report.target] : []
      checker.confirm(&result, outcome, command: command + target, only: index)
      runs.append(AppRun(app: index, outcome: outcome))
    }
    return runs
  }

  /// Runs the battery `--emit-app` wrote into `folder` beside the one app's mirror (`mirror`:
  /// what it lowered), and confirms that app's diagnostics.
  package func runEmitted(_ result: inout ScanResult, folder: String, battery: (files: [(String, String)], notRun: [String]),
                          mirror: MirrorSummary, command: [String]) throws(ScanTrouble) -> AppRun {
    let files = battery.files.map { folder + "/" + ScanCheck.batteryFolder + "/" + $0.0 }
    let outcome = try checker.run(files, notRun: battery.notRun, mirror: mirror, findings: result.apps[0].diagnostics)
    checker.confirm(&result, outcome, command: command)
    return AppRun(app: 0, outcome: outcome)
  }

  /// All apps' runs as one outcome, for the `--json` end line: every case, and each scenario
  /// not run with its app's target before it.
  static func merged(_ runs: [AppRun], _ result: ScanResult) -> ScanCheck.Outcome {
    let several = runs.count > 1
    return ScanCheck.Outcome(results: runs.flatMap(\.outcome.results),
                             notRun: runs.flatMap { run in run.outcome.notRun.map { several ? "\(result.apps[run.app].target): \($0)" : $0 } },
                             refused: runs.map(\.outcome.refused).reduce(0, +))
  }
}

extension ScanCheckSession {
  /// The exit status of the scan and every app's runs: the worst of each app's (one app's
  /// battery refused whole is trouble, whatever the others did).
  package static func status(_ runs: [AppRun], scan: Int32) -> Int32 {
    runs.map { ScanCheck.status(scan: scan, $0.outcome) }.max() ?? scan
  }

  /// The `check` member of `--json`'s end line for every app's runs.
  package static func endMember(_ runs: [AppRun], _ result: ScanResult) -> (String, JSONValue) {
    ScanCheck.endMember(merged(runs, result), diagnostics: runs.map(\.outcome.diagnostics.count).reduce(0, +))
  }
}

extension ScanCheck {
  /// Writes `report`'s mirror and battery (with `extras`, cases of another battery) into a
  /// temporary folder, runs it on the matrix and removes the folder.
  package func runBattery(of report: ScanReport, root: String, only: String?, extras: [CheckBattery.Scenario] = [],
                          findings: [ScanDiagnostic]) throws(ScanTrouble) -> Outcome {
    let mirror = ScanMirror(report, root: root)
    let battery = try ScanCheck.scenarioFiles(mirror, only: only, extras: extras)
    let folder = try ScanCheck.temporaryFolder()
    defer { ScanCheck.remove(folder) }
    if case let .failure(trouble) = ScanEmit.write(mirror, into: folder, battery: battery.files, force: false) { throw trouble }
    let files = battery.files.map { folder + "/" + ScanCheck.batteryFolder + "/" + $0.0 }
    return try run(files, notRun: battery.notRun, mirror: mirror.summary, findings: findings)
  }
}
