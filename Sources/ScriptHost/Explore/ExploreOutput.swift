import EventStore
import Foundation
import Lifecycle

/// Writes an exploration to `-o DIR`: `finding-N.lua` (a scenario), `finding-N.lifelog` (its
/// run by the ordinary runner, which must fail) and `report.json`.
public enum ExploreOutput {
  /// Writes everything and returns the report. Findings are numbered from 1 in signature order.
  /// An existing `report.json` in `dir` is kept unless `overwrite`.
  public static func write(_ result: ExploreResult, explorer: Explorer, to dir: String,
                           overwrite: Bool = false) throws(ScriptError) -> ExploreReport {
    try refuseExisting(dir, overwrite: overwrite)
    do {
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    } catch {
      throw ScriptError("-o \(dir): cannot create the folder (\(error.localizedDescription))")
    }
    let appReference = relativePath(from: dir, to: explorer.appPath)
    var names: [String] = []
    var reproduces: [Bool] = []
    for (i, finding) in result.findings.enumerated() {
      let name = "finding-\(i + 1).lua"
      let lines = explorer.invariantLines(finding.signature.place)
      let text = FindingScenario.text(finding, number: i + 1, appReference: appReference, profile: explorer.profile,
                                      seed: explorer.seed, specSource: explorer.specSource,
                                      invariantLines: finding.signature.reason == "invariant" ? lines : nil)
      try save(text, to: dir + "/" + name)
      let outcome = explorer.runFinding(name: name, text: text, appReference: appReference,
                                        logPath: dir + "/finding-\(i + 1).lifelog")
      names.append(name)
      reproduces.append(outcome == 1)
    }
    let report = ExploreReport(result, scenarios: names, reproduces: reproduces)
    try save(report.json.canonicalText + "\n", to: dir + "/report.json")
    return report
  }

  /// Merges the reports in `dirs` into `out`, copying each kept finding's scenario and log.
  public static func merge(_ dirs: [String], into out: String, overwrite: Bool = false) throws(ScriptError) -> ExploreReport {
    try refuseExisting(out, overwrite: overwrite)
    var reports: [ExploreReport] = []
    for dir in dirs {
      let path = dir + "/report.json"
      guard let data = FileManager.default.contents(atPath: path) else { throw ScriptError("\(path): cannot read the report") }
      let json: JSONValue
      var bytes = [UInt8](data)
      while bytes.last == 0x0A { bytes.removeLast() }
      do { json = try JSONParser.parse(bytes) } catch {
        throw ScriptError("\(path): not JSON (\(error.reason) at byte \(error.offset))")
      }
      do { reports.append(try ExploreReport(json: json)) } catch { throw ScriptError("\(path): \(error.message)") }
    }
    var (merged, sources) = try ExploreReport.merge(reports)
    do { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) } catch {
      throw ScriptError("-o \(out): cannot create the folder (\(error.localizedDescription))")
    }
    for i in merged.findings.indices {
      let from = dirs[sources[i]]
      let old = merged.findings[i].scenario
      let new = "finding-\(i + 1).lua"
      guard let text = FileManager.default.contents(atPath: from + "/" + old).map({ String(decoding: $0, as: UTF8.self) }) else {
        throw ScriptError("\(from)/\(old): cannot read the finding")
      }
      // The scenario names the app relative to its folder: rewrite it for the new folder.
      try save(renumber(text, to: i + 1, from: from, into: out), to: out + "/" + new)
      let oldLog = from + "/" + old.dropLast(4) + ".lifelog"
      let newLog = out + "/finding-\(i + 1).lifelog"
      try? FileManager.default.removeItem(atPath: newLog)
      try? FileManager.default.copyItem(atPath: oldLog, toPath: newLog)
      merged.findings[i].scenario = new
    }
    try save(merged.json.canonicalText + "\n", to: out + "/report.json")
    return merged
  }

  /// The finding's first line says its number; its `app = "…"` is relative to `from`.
  private static func renumber(_ text: String, to number: Int, from: String, into out: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if let first = lines.first, first.hasPrefix("-- Finding "), let colon = first.firstIndex(of: ":") {
      lines[0] = "-- Finding \(number)" + first[colon...]
    }
    for i in lines.indices where lines[i].hasPrefix("scenario { app = \"") {
      let rest = lines[i].dropFirst("scenario { app = \"".count)
      guard let quote = rest.firstIndex(of: "\"") else { continue }
      let app = String(rest[..<quote])
      let absolute = app.hasPrefix("/") ? app : from + "/" + app
      lines[i] = "scenario { app = \(LuaStringLiteral.quote(relativePath(from: out, to: absolute)))" + rest[quote...].dropFirst()
    }
    return lines.joined(separator: "\n")
  }

  /// A folder that already holds a report is another exploration's: never overwritten silently.
  private static func refuseExisting(_ dir: String, overwrite: Bool) throws(ScriptError) {
    if !overwrite, FileManager.default.fileExists(atPath: dir + "/report.json") {
      throw ScriptError("\(dir)/report.json: already exists; use --force to overwrite the folder's findings")
    }
  }

  private static func save(_ text: String, to path: String) throws(ScriptError) {
    do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
      throw ScriptError("\(path): cannot write (\(error.localizedDescription))")
    }
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
    let config = RunConfiguration(scenarioPath: name, outputPath: logPath, overwrite: true, source: .embedded(scripts))
    return ScenarioRunner(config) { _, _ in }.run().exitStatus
  }
}
