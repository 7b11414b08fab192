import FoundationEssentials
import Lifecycle

/// One iOS app's report: its files' facts merged, its own Info.plist found and read, the
/// delegates and calls resolved, its diagnostics.
enum AppAnalysis {
  /// What every app of one scan shares: the files found, the scanned roots (a project may not
  /// send the scan outside them), the limits, and the files that could not be read.
  struct Context {
    let files: SourceFiles
    let roots: [String]
    /// Without a project, each unit's folder: a plist belongs to the innermost that holds it.
    var unitFolders: [String] = []
    let limits: ScanLimits
    var skipped: [(file: String, reason: String)] = []
    /// The `lifesim:ignore` comments of the Info.plists read.
    var suppressions: [Suppression] = []
  }

  static func report(_ unit: ScanUnit, facts: [SwiftFacts], context: inout Context, total: inout Int) -> ScanReport {
    var report = ScanReport()
    report.target = unit.name
    report.files = SourceFiles(swift: unit.swift, infoPlists: [], storyboards: context.files.storyboards,
                               projects: unit.target.map { [$0.project] } ?? context.files.projects, objectiveC: context.files.objectiveC)
    if let target = unit.target {
      readTargetPlist(target, into: &report, context: &context, total: &total)
      report.deploymentTarget = target.settings["IPHONEOS_DEPLOYMENT_TARGET"]
      report.bundleIdentifier = target.settings["PRODUCT_BUNDLE_IDENTIFIER"].flatMap(target.expanded)
    } else {
      let candidates = context.files.infoPlists.filter { plist in
        guard let folder = unit.folder.map(ScanPath.normalised) else { return true }
        let path = ScanPath.normalised(plist)
        // Under this unit's folder, and under no deeper unit's (an App Clip inside the app's folder).
        return ScanPath.contains(folder, path)
          && !context.unitFolders.contains { $0.count > folder.count && ScanPath.contains(folder, $0) && ScanPath.contains($0, path) }
      }
      readFirstAppPlist(candidates.isEmpty ? context.files.infoPlists : candidates, into: &report, context: &context, total: &total)
    }
    if let plist = report.plistFacts { report.files.infoPlists = [plist.path] }
    ScanAnalysis(facts: merged(facts), report: report).run(into: &report)
    report.rootController = report.rootController ?? StoryboardReader.initialController(report, limits: context.limits, total: &total)
    report.diagnostics = StaticChecks.diagnostics(report)
    report.notFollowed = (report.notFollowed + StaticChecks.notes(report)).sorted { $0.place < $1.place }
    return report
  }

  /// The facts of several files as one, each file's function indices moved past those before it.
  static func merged(_ files: [SwiftFacts]) -> SwiftFacts {
    var all = SwiftFacts()
    for facts in files {
      let offset = all.functions.count
      let shift = { (index: Int?) in index.map { $0 + offset } }
      all.types += facts.types
      all.functions += facts.functions
      all.registrations += facts.registrations.map { var fact = $0; fact.function = shift(fact.function); return fact }
      all.delegateAssignments += facts.delegateAssignments.map { var fact = $0; fact.function = shift(fact.function); return fact }
      all.backgroundTasks += facts.backgroundTasks.map { var fact = $0; fact.function = shift(fact.function); return fact }
      all.windows += facts.windows
      all.windowUses += facts.windowUses.map { WindowUseFact(owner: $0.owner, function: shift($0.function), place: $0.place,
                                                              isWrite: $0.isWrite, viaDelegate: $0.viaDelegate) }
      all.windowProperties += facts.windowProperties
      all.taskHandlers += facts.taskHandlers
      all.taskRequests += facts.taskRequests
      all.constants += facts.constants
      all.delegateClassOverrides += facts.delegateClassOverrides
      all.adaptors += facts.adaptors
      all.restorationIdentifiers += facts.restorationIdentifiers
      all.rootControllers += facts.rootControllers
    }
    return all
  }

  /// The plist a target names (`INFOPLIST_FILE`), merged into the generated one when the target
  /// generates its Info.plist; without either, the conventional names beside its sources.
  private static func readTargetPlist(_ target: XcodeTarget, into report: inout ScanReport, context: inout Context, total: inout Int) {
    let settings = target.settings
    let generated = settings["GENERATE_INFOPLIST_FILE"] == "YES"
    let named = settings["INFOPLIST_FILE"].flatMap { $0.isEmpty ? nil : $0 }
    var path: String?
    if let named {
      guard let expanded = target.expanded(named) else {
        context.skipped.append((target.project, "target \(target.name): INFOPLIST_FILE \(named) names a setting the scan does not know; its Info.plist is unknown"))
        return
      }
      path = ScanPath.joined(target.projectFolder, expanded)
    } else if !generated {
      path = conventionalPlist(target, report.files.swift, context.files.infoPlists)
    }
    let generatedScenes = settings["INFOPLIST_KEY_UIApplicationSceneManifest_Generation"] == "YES"
    if let path {
      // A project may name files beside it, never outside the scanned folders or its own.
      let allowed = (context.roots + [target.projectFolder]).map(ScanPath.absolute)
      guard allowed.contains(where: { ScanPath.contains($0, ScanPath.absolute(path)) }) else {
        context.skipped.append((path, "target \(target.name) names it, but it is outside the scanned folders; not read"))
        return
      }
      // The target names it: read whatever keys it holds.
      if let facts = readPlist(path, merged: true, preprocessor: preprocessor(target), context: &context, total: &total) {
        report.plistFacts = facts
        report.plist = generated ? .generated(target.project, merged: path) : .file(path)
        report.sceneManifest = generated && generatedScenes ? .configured : SceneManifest(rawValue: facts.sceneManifest)
        return
      }
    }
    guard generated else { return }
    report.plist = .generated(target.project, merged: nil)
    report.sceneManifest = generatedScenes ? .configured : SceneManifest.none
  }

  /// `Name/Info.plist`, `Name-Info.plist` or `Info-Name.plist` beside the target's first source, else its first app plist found.
  private static func conventionalPlist(_ target: XcodeTarget, _ swift: [String], _ found: [String]) -> String? {
    var seen: Set<String> = []
    let folders = swift.map { ScanPath.folder(of: ScanPath.normalised($0)) }.filter { seen.insert($0).inserted }
    let named = ["Info.plist", "\(target.name)-Info.plist", "Info-\(target.name).plist"]
    for folder in folders { for name in named where FileManager.default.fileExists(atPath: folder + "/" + name) { return folder + "/" + name } }
    return found.first { plist in folders.contains { ScanPath.contains($0, ScanPath.normalised(plist)) } }
  }

  /// Macros a target defines for its preprocessed plist: known where every configuration agrees.
  private static func preprocessor(_ target: XcodeTarget) -> InfoPlistPreprocessor {
    var perConfiguration: [[String: String?]] = []
    for (_, settings) in target.configurations {
      var macros: [String: String?] = [:]
      for definition in (settings["INFOPLIST_PREPROCESSOR_DEFINITIONS"] ?? "").split(separator: " ") where definition != "$(inherited)" {
        let parts = definition.split(separator: "=", maxSplits: 1)
        macros[String(parts[0])] = parts.count > 1 ? String(parts[1]) : "1"
      }
      perConfiguration.append(macros)
    }
    var agreed: [String: String?] = [:]
    var disagreed: Set<String> = []
    for name in Set(perConfiguration.flatMap(\.keys)) {
      if perConfiguration.allSatisfy({ $0[name] == perConfiguration.first?[name] }) { agreed[name] = perConfiguration.first?[name] ?? nil } else { disagreed.insert(name) }
    }
    // A macro one configuration defines and another does not is unknown, even in a closed world.
    let closed = !target.configurations.isEmpty && target.configurations.allSatisfy {
      $0.settings["INFOPLIST_PREPROCESSOR_DEFINITIONS"] != nil && $0.settings["INFOPLIST_PREFIX_HEADER"] == nil
    }
    return InfoPlistPreprocessor(macros: agreed, closedWorld: closed, unknown: disagreed)
  }

  /// The first of `candidates` that is an app's plist (not an extension's).
  private static func readFirstAppPlist(_ candidates: [String], into report: inout ScanReport, context: inout Context, total: inout Int) {
    for path in candidates {
      guard let facts = readPlist(path, merged: false, preprocessor: InfoPlistPreprocessor(macros: [:], closedWorld: false),
                                  context: &context, total: &total) else { continue }
      report.plistFacts = facts
      report.plist = .file(path)
      report.sceneManifest = SceneManifest(rawValue: facts.sceneManifest)
      return
    }
  }

  private static func readPlist(_ path: String, merged: Bool, preprocessor: InfoPlistPreprocessor, context: inout Context, total: inout Int) -> InfoPlistFacts? {
    guard !context.skipped.contains(where: { $0.file == path }) else { return nil }
    switch SourceDiscovery.read(path, limits: context.limits, total: &total) {
    case let .failure(trouble):
      context.skipped.append((path, trouble.description))
      return nil
    case let .success(data):
      if data.containsBytes(Array(Suppression.marker.utf8)) {
        context.suppressions += Suppression.find(in: String(decoding: data, as: UTF8.self), file: path)
      }
      switch InfoPlistFacts.read(path: path, data: data, merged: merged, preprocessor: preprocessor) {
      case let .failure(trouble):
        context.skipped.append((path, trouble.description))
        return nil
      case let .success(facts): return facts
      }
    }
  }
}
