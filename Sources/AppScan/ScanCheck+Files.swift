import EventStore
#if canImport(Glibc)
import Glibc
#endif
import ScriptHost

/// The battery's files: its templates, the scenarios written from them for one app, and the
/// temporary folder `--check` runs them in without `--emit-app`.
extension ScanCheck {
  /// The battery's templates: `Scripts/scan` of a build, `share/lifesim/scan` of an install,
  /// the folder beside the bundled Lua annotations.
  package static func templateFolder() -> String? {
    guard let types = ModuleSearchPath.bundledTypes(), let slash = types.lastIndex(of: "/") else { return nil }
    let folder = String(types[..<slash]) + "/scan"
    return POSIXFile.isDirectory(folder) ? folder : nil
  }

  /// The battery's scenarios for the mirror's app: file names and texts, naming the app at
  /// `../app.lua` and forcing its `choose` sites (`ScanMirror.choices`); with `only` (`--case`),
  /// that one scenario, and nothing listed as not run. `extras` are run too where the app's own
  /// battery has no case of their name (the other side of a migration's, which expects what that
  /// side's app handled): their files are named `other_…`.
  package static func scenarioFiles(_ mirror: ScanMirror, only: String? = nil,
                                    extras: [CheckBattery.Scenario] = []) throws(ScanTrouble) -> (files: [(String, String)], notRun: [String]) {
    guard let folder = templateFolder() else {
      throw ScanTrouble("cannot find lifesim's --check battery (Scripts/scan or share/lifesim/scan) beside the executable")
    }
    let report = mirror.writer.report
    var battery = CheckBattery.scenarios(for: report)
    for extra in extras where !battery.run.contains(where: { $0.name == extra.name }) {
      battery.run.append(CheckBattery.Scenario(template: extra.template, name: extra.name, fileName: "other_" + extra.fileName, locals: extra.locals))
      battery.notRun.removeAll { $0.hasPrefix(extra.name + ": ") }
    }
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
      let text = CheckBattery.text(scenario, template: templates[scenario.template] ?? "", scenes: LuaAppWriter.pinnedScenes(report),
                                   app: "../app.lua",
                                   choosing: mirror.choices(running: scenario.locals.first { $0.name == "taskIdentifier" }?.value))
      files.append((scenario.fileName, text))
    }
    return (files, battery.notRun)
  }

  /// A new folder for the emitted app and the battery, in `$TMPDIR` (else `/tmp`).
  package static func temporaryFolder() throws(ScanTrouble) -> String {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    switch POSIXFile.makeTemporaryDirectory(prefix: base + "/lifesim-check-") {
    case let .success(folder): return folder
    case let .failure(error): throw ScanTrouble("\(base): cannot make a temporary folder: \(POSIXFile.describe(error.code))")
    }
  }

  /// Removes the temporary folder `temporaryFolder` made, and what `--check` wrote into it.
  package static func remove(_ folder: String) {
    let battery = folder + "/" + batteryFolder
    for dir in [battery, folder] {
      for name in POSIXFile.directoryEntries(dir) ?? [] where name != "." && name != ".." { _ = POSIXFile.remove(dir + "/" + name) }
    }
    _ = POSIXFile.removeDirectory(battery)
    _ = POSIXFile.removeDirectory(folder)
  }
}
