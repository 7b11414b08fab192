import AppScan
import ArgumentParser
import Foundation
import EventStore
import JSON
import Lifecycle
import Render
import ScriptHost
import Suite

/// `lifesim scan --check`: the bundled battery's scenarios (docs/scan.md), written beside the
/// emitted app and run on the iOS × SDK matrix by the suite's runner, and what they found.
struct ScanCheck {
  /// The profiles and the SDKs the app is built with.
  let ios: [Int]
  let sdks: [Int]

  /// The SDKs the app is built with when `--sdk` names none: the App Store's and every newer one.
  static let defaultSDKs = IOSRelease.versions.filter { $0 >= IOSRelease.appStoreSDK }
  /// The profiles when `--ios` names none: the default release, and those of `defaultSDKs`.
  static let defaultIOS = [IOSRelease.defaultVersion] + defaultSDKs

  /// What the battery did: every case's result, and the scenarios it did not run, with why.
  struct Outcome {
    let results: [CaseResult]
    let notRun: [String]
    /// The cases the model refused (listed in `notRun`).
    var refused = 0
    var summary: SuiteSummary { SuiteSummary(results) }
    /// The runs' diagnostics, each code and message once, with the cases that recorded it.
    var diagnostics: [(diagnostic: Diagnostic, cases: [String])] {
      var found: [(diagnostic: Diagnostic, cases: [String])] = []
      for r in results {
        for d in r.diagnostics {
          if let i = found.firstIndex(where: { $0.diagnostic.code == d.code && $0.diagnostic.message == d.message }) {
            found[i].cases.append(r.name)
          } else {
            found.append((d, [r.name]))
          }
        }
      }
      return found
    }
    /// The findings of the runs: failed cases and distinct diagnostics.
    var findings: Int { summary.failed + diagnostics.count }
  }

  /// The battery's templates: `Scripts/scan` of a build, `share/lifesim/scan` of an install,
  /// the folder beside the bundled Lua annotations.
  static func templateFolder() -> String? {
    guard let types = ModuleSearchPath.bundledTypes(), let slash = types.lastIndex(of: "/") else { return nil }
    let folder = String(types[..<slash]) + "/scan"
    return POSIXFile.isDirectory(folder) ? folder : nil
  }

  /// The battery's scenarios for `report`: file names and texts, naming the app at `../app.lua`;
  /// with `only` (`--case`), that one scenario, and nothing listed as not run.
  static func scenarioFiles(_ report: ScanReport, only: String? = nil) throws(ScanTrouble) -> (files: [(String, String)], notRun: [String]) {
    guard let folder = templateFolder() else {
      throw ScanTrouble("cannot find lifesim's --check battery (Scripts/scan or share/lifesim/scan) beside the executable")
    }
    var battery = CheckBattery.scenarios(for: report)
    if let only {
      guard battery.run.contains(where: { $0.name == only }) else {
        throw ScanTrouble("--case \(only): no such case of this app's battery (its cases: \(battery.run.map(\.name).joined(separator: ", ")))")
      }
      battery = (battery.run.filter { $0.name == only }, [])
    }
    var templates: [String: String] = [:]
    var files: [(String, String)] = []
    for scenario in battery.run {
      if templates[scenario.template] == nil {
        let path = "\(folder)/\(scenario.template).lua.in"
        guard let bytes = POSIXFile.readAll(path) else { throw ScanTrouble("\(path): cannot read the battery's template") }
        templates[scenario.template] = String(decoding: bytes, as: UTF8.self)
      }
      let text = CheckBattery.text(scenario, template: templates[scenario.template] ?? "", scenes: LuaAppWriter.pinnedScenes(report), app: "../app.lua")
      files.append((scenario.fileName, text))
    }
    return (files, battery.notRun)
  }

  /// Runs the battery's scenario files (those this emit wrote: nothing else in their folder) on
  /// the matrix, each case on a worker thread of this process.
  func run(_ files: [String], notRun: [String]) throws(ScanTrouble) -> Outcome {
    let discovery: Discovery
    do { discovery = try ScenarioDiscovery.find(files, filter: nil) } catch { throw ScanTrouble(error.message) }
    let cases = SuitePlan.cases(discovery.scenarios, profiles: ios, scenesBoth: false, sdks: sdks.map(Optional.some), shard: nil)
    var options = CaseOptions(logsDirectory: nil, keepAllLogs: false, searchPath: ModuleSearchPath.folders(libs: []),
                              wallLimitSeconds: WallClock.defaultLimitSeconds, reproduceOptions: [])
    options.inputs = discovery.inputs
    let results = SuiteRunner(cases: cases, options: options, jobs: SuiteRunner.processorCount).run(onResult: { _ in })
    // A case the model refuses (a script error in the mirror's run) says nothing of the app: it
    // is listed as not run, with why, and not counted.
    let refused = results.filter { $0.status == .error }.map { "\($0.name): not run, \($0.message ?? "the run stopped")" }
    return Outcome(results: results.filter { $0.status != .error }, notRun: notRun + refused, refused: refused.count)
  }

  /// Gives each of the scan's diagnostics what the runs say of it (Confirmation): the first case
  /// whose run shows it through the model, with the command that runs that case again.
  func confirm(_ result: inout ScanResult, _ outcome: Outcome, command: [String]) {
    // A failed case (the trap, the crash) shows a finding more plainly than a passing one's warning.
    let ordered = outcome.results.sorted { ($0.status == .failed ? 0 : 1, $0.index) < ($1.status == .failed ? 0 : 1, $1.index) }
    for app in result.apps.indices {
      for index in result.apps[app].diagnostics.indices {
        result.apps[app].diagnostics[index].confirmation = confirmation(of: result.apps[app].diagnostics[index], ordered, command: command)
      }
    }
  }

  private func confirmation(of diagnostic: ScanDiagnostic, _ ordered: [CaseResult], command: [String]) -> Confirmation {
    guard let evidence = Confirmation.evidence(for: diagnostic.code) else {
      return .unconfirmed(why: "no case of the battery shows \(diagnostic.code) yet")
    }
    let shows = ordered.first { r in
      switch evidence {
      case .runtimeDiagnostic: return r.diagnostics.contains { $0.code == diagnostic.code && (diagnostic.handler == nil || $0.handler == diagnostic.handler) }
      case let .failureMessage(text): return r.status == .failed && (r.message ?? "").contains(text)
      case let .failedCase(name): return r.status == .failed && r.name.hasPrefix(name + " [")
      case let .completionNotCalled(handlers): return r.returnedWithoutCompletion.contains(where: handlers.contains)
      }
    }
    guard let r = shows else { return .unconfirmed(why: "no case of the battery on this matrix showed it") }
    let scenario = r.name.range(of: " [iOS ", options: .backwards).map { String(r.name[..<$0.lowerBound]) } ?? r.name
    let words = command + ["--check", "--case", scenario, "--ios", String(r.ios)] + (r.sdk.map { ["--sdk", String($0)] } ?? [])
    return .confirmed(scenario: r.name, ios: r.ios, sdk: r.sdk, reproduce: ShellCommand.line(words))
  }

  /// The human report of the runs: what the matrix was, a line per case that did not pass, the
  /// runs' diagnostics, what did not run, and the counts. `removed`: the temporary folder, gone
  /// by the time the report is read, which places are shown without.
  func textLines(_ outcome: Outcome, scenes: Bool, removed: String?) -> [String] {
    let scenarios = Set(outcome.results.map(\.file)).count
    var lines = ["check: \(scenarios) scenario\(scenarios == 1 ? "" : "s") on iOS \(ios.map(String.init).joined(separator: ", "))"
      + " × SDK \(sdks.map(String.init).joined(separator: ", ")), \(scenes ? "with scenes" : "without scenes")"]
    for r in outcome.results {
      let name = TerminalText.visible(r.name)
      let at = r.at.map { at in removed == nil ? at : Self.placeInBattery(at) }
      let message = TerminalText.visible((r.message ?? "") + (at.map { "  (\($0))" } ?? ""))
      switch r.status {
      case .passed: continue
      case .failed: lines.append("✘ \(name): \(message)")
      case .error: lines.append("! \(name) (script error): \(message)")
      case .skipped: lines.append("- \(name) (skipped: \(message))")
      }
    }
    for (d, cases) in outcome.diagnostics {
      let more = cases.count > 1 ? " and \(cases.count - 1) more" : ""
      lines.append("⚠ \(d.code): \(TerminalText.visible(d.message))  [\(TerminalText.visible(cases[0]))\(more)]")
    }
    lines += outcome.notRun.map { "- \(TerminalText.visible($0))" }
    lines.append(HumanReport.summary(outcome.summary, wallUs: nil))
    return lines
  }

  /// A place in the battery's folder, `check/cold_launch.lua:6`, whatever came before it (the
  /// temporary folder, or Lua's `...` where it shortened a long path).
  static func placeInBattery(_ at: String) -> String {
    guard let folder = at.range(of: "/check/", options: .backwards) else { return at }
    return "check/" + at[folder.upperBound...]
  }

  /// The `check` member of `--json`'s end line.
  static func endMember(_ outcome: Outcome) -> (String, JSONValue) {
    let s = outcome.summary
    return ("check", .object([
      ("cases", .int(Int64(s.cases))), ("passed", .int(Int64(s.passed))), ("failed", .int(Int64(s.failed))),
      ("skipped", .int(Int64(s.skipped))), ("errors", .int(Int64(s.errors))),
      ("diagnostics", .int(Int64(outcome.diagnostics.count))), ("not_run", .array(outcome.notRun.map { .string($0) })),
    ]))
  }
}

extension ScanCheck {
  /// A new folder for the emitted app and the battery, in `$TMPDIR` (else `/tmp`).
  static func temporaryFolder() throws -> String {
    let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    switch POSIXFile.makeTemporaryDirectory(prefix: base + "/lifesim-check-") {
    case let .success(folder): return folder
    case let .failure(error):
      Terminal.error("\(base): cannot make a temporary folder: \(POSIXFile.describe(error.code))")
      throw ExitCode(Status.trouble)
    }
  }

  /// Removes the temporary folder `temporaryFolder` made, and what `--check` wrote into it.
  static func remove(_ folder: String) {
    let battery = folder + "/" + ScanEmit.batteryFolder
    for dir in [battery, folder] {
      for name in POSIXFile.directoryEntries(dir) ?? [] where name != "." && name != ".." { _ = POSIXFile.remove(dir + "/" + name) }
    }
    _ = POSIXFile.removeDirectory(battery)
    _ = POSIXFile.removeDirectory(folder)
  }

  /// The exit status of a scan with `--check`: the scan's trouble (an input it cannot read, no
  /// app), else 1 when the scan or a run found something. A case not run is listed, not trouble.
  static func status(scan: Int32, _ outcome: Outcome?) -> Int32 {
    guard let outcome else { return scan }
    // Every case refused: the battery checked nothing, which is trouble, not a pass.
    if scan == Status.trouble || (outcome.results.isEmpty && outcome.refused > 0) { return Status.trouble }
    return scan == Status.ok && outcome.findings == 0 ? Status.ok : Status.failed
  }
}
