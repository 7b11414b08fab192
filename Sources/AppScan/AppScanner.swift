import FoundationEssentials

/// `lifesim scan`'s library: reads a Swift app's sources, Xcode projects, Info.plists and
/// storyboards, and reports each iOS app target's lifecycle shape and the risks the model knows,
/// listing the other targets (extensions, watchOS and macOS apps) as what they are (docs/scan.md).
package enum AppScanner {
  /// The Swift files read before they are parsed together.
  static let filesPerChunk = 64

  /// Scans the files and folders in `paths`; `target` keeps one target; `exclude` names paths
  /// (globs from the scanned folder) not to read. Throws when a path is
  /// missing, the tree passes the limits, or no app is found; a file it cannot read is listed
  /// in the result's `troubles`.
  package static func scan(_ paths: [String], target: String? = nil, exclude: [String] = [],
                           limits: ScanLimits = ScanLimits()) throws(ScanTrouble) -> ScanResult {
    var result = ScanResult()
    result.files = try SourceDiscovery.find(paths, limits: limits, exclude: exclude)
    var total = 0
    var facts: [String: SwiftFacts] = [:]
    var read: [String] = []
    var suppressions: [Suppression] = []
    // A chunk of files is read in order, then parsed in parallel: at most a chunk's bytes are held.
    for start in stride(from: 0, to: result.files.swift.count, by: filesPerChunk) {
      let chunk = result.files.swift[start..<min(start + filesPerChunk, result.files.swift.count)]
      let loaded = chunk.map { path in SourceDiscovery.read(path, limits: limits, total: &total).map { (path: path, data: $0) } }
      var parsed = SwiftFileReader.facts(of: loaded.compactMap { try? $0.get() }).makeIterator()
      for (path, outcome) in zip(chunk, loaded) {
        guard case let .success(file) = outcome, let fileResult = parsed.next() else {
          if case let .failure(trouble) = outcome { result.files.skipped.append((path, trouble.description)) }
          continue
        }
        if file.data.containsBytes(Array(Suppression.marker.utf8)) { suppressions += Suppression.find(in: String(decoding: file.data, as: UTF8.self), file: path) }
        switch fileResult {
        case let .failure(trouble): result.files.skipped.append((path, trouble.description))
        case let .success(fileFacts):
          result.syntaxErrors += fileFacts.syntaxErrorLines.map { SourcePlace(file: path, line: $0) }
          facts[path] = fileFacts
          read.append(path)
        }
      }
    }
    var targets = readProjects(&result, roots: paths.map(ScanPath.normalised), limits: limits, total: &total)
    // Local packages a project names only by product: the scanned folder of that name with a Package.swift.
    let packages = Dictionary(read.filter { $0.hasSuffix("/Package.swift") }.map { (ScanPath.folder(of: ScanPath.normalised($0)), ()) },
                              uniquingKeysWith: { first, _ in first })
    let packagesByName = Dictionary(grouping: packages.keys, by: { $0.split(separator: "/").last.map(String.init) ?? "" })
    for index in targets.indices {
      targets[index].packageFolders += targets[index].packageProducts.flatMap { packagesByName[$0] ?? [] }.sorted()
    }
    var units = ScanUnits.fromTargets(targets, swift: read)
    if units.isEmpty {
      let extensions = extensionPlists(result.files.infoPlists, limits: limits, total: &total)
        .map { ScanUnits.Anchor(type: ScanPath.folder(of: $0).split(separator: "/").last.map(String.init) ?? "Extension", file: $0, kind: .appExtension) }
      units = ScanUnits.fromAnchors(anchors(facts, read) + extensions, swift: read, scanned: paths[0])
    }
    if let target {
      guard let unit = units.first(where: { $0.name == target }) else {
        throw ScanTrouble("\(paths.joined(separator: ", ")): no target named \(target); the targets are \(units.map(\.name).joined(separator: ", "))")
      }
      units = [unit]
    }
    var context = AppAnalysis.Context(files: result.files, roots: paths.map(ScanPath.normalised), limits: limits)
    context.unitFolders = units.compactMap { $0.folder.map(ScanPath.normalised) }
    for unit in units {
      if unit.kind == .iOSApp {
        let app = AppAnalysis.report(unit, facts: unit.swift.compactMap { facts[$0] }, context: &context, total: &total)
        if app.isApp || unit.target != nil { result.apps.append(app) }
      } else {
        result.others.append(OtherTarget(unit: unit, facts: unit.swift.compactMap { facts[$0] }))
      }
    }
    result.files.skipped += context.skipped
    result.suppressed = Suppression.apply(suppressions + context.suppressions, to: &result.apps)
    Fingerprints.assign(&result, scanned: paths[0], limits: limits)
    result.outsideTargets = targets.isEmpty || units.first?.target == nil ? 0 : Set(read).subtracting(units.flatMap(\.swift)).count
    guard !result.apps.isEmpty else { throw noApp(paths, others: result.others) }
    return result
  }

  /// A folder with no iOS app in it is trouble, never green: a CI step pointed at the wrong
  /// folder must fail.
  private static func noApp(_ paths: [String], others: [OtherTarget]) -> ScanTrouble {
    let found = others.map { "\($0.kind.title) \($0.name)" }
    let what = found.isEmpty ? "no app delegate, scene delegate, SwiftUI App, Info.plist or Xcode project" : "only " + found.joined(separator: ", ")
    return ScanTrouble("no app found in \(paths.joined(separator: ", ")) (\(what)); give the iOS app's folder")
  }

  /// The targets of every project file found; one that cannot be read is named, with why.
  private static func readProjects(_ result: inout ScanResult, roots: [String], limits: ScanLimits, total: inout Int) -> [XcodeTarget] {
    var targets: [XcodeTarget] = []
    var read = total
    defer { total = read }
    for path in result.files.projects {
      switch SourceDiscovery.read(path, limits: limits, total: &read) {
      case let .failure(trouble): result.files.skipped.append((path, trouble.description))
      case let .success(data):
        // The .xcconfig files its configurations name, read within the limits, never outside
        // the scanned folders and the folder that holds the project.
        let allowed = (roots + [ScanPath.folder(of: ScanPath.folder(of: ScanPath.normalised(path)))]).map(ScanPath.absolute)
        let readFile = { (file: String) -> String? in
          guard allowed.contains(where: { ScanPath.contains($0, ScanPath.absolute(file)) }),
                case let .success(data) = SourceDiscovery.read(file, limits: limits, total: &read) else { return nil }
          return String(decoding: data, as: UTF8.self)
        }
        switch XcodeProjectReader.targets(path: path, text: String(decoding: data, as: UTF8.self), readFile: readFile) {
        case let .failure(trouble): result.files.skipped.append((path, trouble.description))
        case let .success(found): targets += found
        }
      }
    }
    return targets
  }

  /// The Info.plists of app extensions (`NSExtension`): without a project, their folders are
  /// extensions, whose files are no app's.
  private static func extensionPlists(_ paths: [String], limits: ScanLimits, total: inout Int) -> [String] {
    paths.filter { path in
      guard case let .success(data) = SourceDiscovery.read(path, limits: limits, total: &total),
            let plist = (try? PropertyList.parse(data)) as? [String: Any] else { return false }
      return plist["NSExtension"] != nil
    }
  }

  /// The delegates that start an app, for a scan without a project: `@main` types, and the
  /// macOS and watchOS delegates; without an iOS `@main`, each class adopting UIApplicationDelegate.
  static func anchors(_ facts: [String: SwiftFacts], _ files: [String]) -> [ScanUnits.Anchor] {
    var anchors: [ScanUnits.Anchor] = []
    var appDelegates: [ScanUnits.Anchor] = []
    for file in files {
      guard let fileFacts = facts[file] else { continue }
      for type in fileFacts.types where !type.isExtension {
        let adaptors = fileFacts.adaptors.filter { $0.owner == type.name }.map(\.attribute)
        let conforms = Set(type.conformances)
        if !conforms.isDisjoint(with: ["NSApplicationDelegate"]) || adaptors.contains("NSApplicationDelegateAdaptor") {
          anchors.append(.init(type: type.name, file: file, kind: .macOSApp))
        } else if !conforms.isDisjoint(with: ["WKApplicationDelegate", "WKExtensionDelegate"]) || adaptors.contains(where: { $0.hasPrefix("WK") }) {
          anchors.append(.init(type: type.name, file: file, kind: .watchApp))
        } else if type.isMain, !conforms.isDisjoint(with: ["UIApplicationDelegate", "UIResponder", "App"]) {
          anchors.append(.init(type: type.name, file: file, kind: .iOSApp))
        } else if conforms.contains("UIApplicationDelegate") {
          appDelegates.append(.init(type: type.name, file: file, kind: .iOSApp))
        }
      }
    }
    return anchors.contains { $0.kind == .iOSApp } ? anchors : anchors + appDelegates
  }
}
