import EventStore
import FoundationEssentials
import JSON
import Lifecycle
import ScriptHost

/// Writes an exploration to `-o DIR`: `finding-N.lua` (a scenario), `finding-N.lifelog` (its
/// run by the ordinary runner, which must fail) and `report.json`.
public enum ExploreOutput {
  /// Writes everything and returns the report. Findings are numbered from 1 in signature order.
  /// A file already in `dir` is replaced only with `overwrite`, and an input (the app, a module
  /// it requires, the spec) never: see `FindingFolder`.
  public static func write(_ result: ExploreResult, explorer: Explorer, to dir: String,
                           overwrite: Bool = false) throws(ScriptError) -> ExploreReport {
    try FindingFolder.check(FindingFolder.files(dir, findings: result.findings.count), inputs: explorer.inputPaths,
                            overwrite: overwrite)
    try FindingFolder.create(dir)
    let appReference = relativePath(from: dir, to: explorer.appPath)
    var names: [String] = []
    var reproduces: [Bool] = []
    for (i, finding) in result.findings.enumerated() {
      let name = FindingFolder.scenario(i + 1)
      let lines = explorer.invariantLines(finding.signature.place)
      let text = FindingScenario.text(finding, number: i + 1, appReference: appReference, profile: explorer.profile,
                                      seed: explorer.seed, specSource: explorer.specSource,
                                      invariantLines: finding.signature.reason == "invariant" ? lines : nil)
      try FindingFolder.save(text, to: dir + "/" + name)
      let outcome = explorer.runFinding(name: name, text: text, appReference: appReference,
                                        logPath: dir + "/" + FindingFolder.log(i + 1))
      names.append(name)
      reproduces.append(outcome == 1)
    }
    let report = ExploreReport(result, scenarios: names, reproduces: reproduces)
    try FindingFolder.save(report.json.canonicalText + "\n", to: dir + "/report.json")
    return report
  }

  /// `to` as a path relative to the folder `from` (both made absolute from the working folder).
  static func relativePath(from dir: String, to file: String) -> String {
    let cwd = FileManager.default.currentDirectoryPath
    func parts(_ p: String) -> [String] {
      let absolute = p.hasPrefix("/") ? p : cwd + "/" + p
      return ScriptLoader.normalize(absolute).split(separator: "/").map(String.init)
    }
    let a = parts(dir), b = parts(file)
    var common = 0
    while common < min(a.count, b.count - 1), a[common] == b[common] { common += 1 }
    return (Array(repeating: "..", count: a.count - common) + b[common...]).joined(separator: "/")
  }
}

extension Explorer {
  /// The source lines of the invariant `name` in the spec.
  func invariantLines(_ name: String) -> ClosedRange<Int>? { setup.invariants.first { $0.name == name }?.lines }

  /// Runs a finding's scenario with the ordinary runner (its scripts embedded, so the log's
  /// header names `name`) and writes its log; the exit status (1: it fails, as it must).
  func runFinding(name: String, text: String, appReference: String, logPath: String) -> Int32 {
    let appKey = ScriptLoader.join(ScriptLoader.directory(of: name), appReference)
    let scripts = [EmbeddedScript(role: "scenario", path: name, source: text),
                   EmbeddedScript(role: "app", path: appKey, source: setup.appSource)] + setup.modules
    var config = RunConfiguration(scenarioPath: name, outputPath: logPath, overwrite: true, source: .embedded(scripts))
    config.sdk = options.sdk
    return ScenarioRunner(config) { _, _ in }.run().exitStatus
  }

  /// The files the exploration reads: the app or spec given, the app, and the modules it requires.
  public var inputPaths: [String] { [options.path, setup.appPath] + setup.modules.map(\.path) }
}
