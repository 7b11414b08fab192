import Foundation

/// `lifesim scan`'s library: reads a Swift app's sources, Info.plist and storyboard, and
/// reports its lifecycle shape and the risks the model knows (docs/scan.md).
package enum AppScanner {
  /// Scans the files and folders in `paths`. Throws when a path is missing or the tree passes
  /// the limits; a file it cannot read is listed in the report's `troubles`.
  package static func scan(_ paths: [String], limits: ScanLimits = ScanLimits()) throws(ScanTrouble) -> ScanReport {
    var report = ScanReport()
    report.files = try SourceDiscovery.find(paths, limits: limits)
    var total = 0
    var all = SwiftFacts()
    for path in report.files.swift {
      switch SourceDiscovery.read(path, limits: limits, total: &total) {
      case let .failure(trouble): report.files.skipped.append((path, trouble.description))
      case let .success(data):
        let facts = SwiftFactCollector.facts(path: path, source: String(decoding: data, as: UTF8.self))
        report.syntaxErrors += facts.syntaxErrorLines.map { SourcePlace(file: path, line: $0) }
        merge(facts, into: &all)
      }
    }
    readPlist(&report, limits: limits, total: &total)
    ScanAnalysis(facts: all, report: report).run(into: &report)
    report.rootController = report.rootController ?? StoryboardReader.initialController(report, limits: limits, total: &total)
    report.diagnostics = StaticChecks.diagnostics(report)
    return report
  }

  /// Appends one file's facts, moving its function indices past those already there.
  private static func merge(_ facts: SwiftFacts, into all: inout SwiftFacts) {
    let offset = all.functions.count
    let shift = { (index: Int?) in index.map { $0 + offset } }
    all.types += facts.types
    all.functions += facts.functions
    all.registrations += facts.registrations.map {
      RegistrationFact(identifier: $0.identifier, function: shift($0.function), place: $0.place, isSwiftUIModifier: $0.isSwiftUIModifier)
    }
    all.delegateAssignments += facts.delegateAssignments.map { DelegateAssignmentFact(function: shift($0.function), place: $0.place) }
    all.backgroundTasks += facts.backgroundTasks.map {
      BackgroundTaskFact(function: shift($0.function), place: $0.place, name: $0.name, expiration: $0.expiration)
    }
    all.windows += facts.windows
    all.constants += facts.constants
    all.adaptors += facts.adaptors
    all.restorationIdentifiers += facts.restorationIdentifiers
    all.rootControllers += facts.rootControllers
  }

  /// The app's Info.plist: the one a project that generates its Info.plist merges in (with the
  /// project's scenes), else the first that is an app's (not an extension's), else the project's
  /// generated one alone (its BGTask keys unknown), else unknown.
  private static func readPlist(_ report: inout ScanReport, limits: ScanLimits, total: inout Int) {
    var generated: GeneratedInfoPlist?
    for path in report.files.projects where generated == nil {
      guard case let .success(data) = SourceDiscovery.read(path, limits: limits, total: &total) else { continue }
      generated = GeneratedInfoPlist.read(path: path, text: String(decoding: data, as: UTF8.self))
    }
    for path in report.files.infoPlists {
      let merged = generated?.merges(path) == true
      switch SourceDiscovery.read(path, limits: limits, total: &total) {
      case let .failure(trouble): report.files.skipped.append((path, trouble.description))
      case let .success(data):
        switch InfoPlistFacts.read(path: path, data: data, merged: merged) {
        case let .failure(trouble): report.files.skipped.append((path, trouble.description))
        case let .success(facts?) where merged:
          report.plistFacts = facts
          report.plist = .generated(generated?.project ?? path, merged: path)
          report.scenes = facts.declaresScenes || generated?.declaresScenes == true
          return
        case let .success(facts?) where report.plistFacts == nil:
          report.plistFacts = facts
          report.plist = .file(path)
          report.scenes = facts.declaresScenes
        case .success: break
        }
      }
    }
    guard report.plistFacts == nil, let generated else { return }
    report.plist = .generated(generated.project, merged: nil)
    report.scenes = generated.declaresScenes
  }
}
