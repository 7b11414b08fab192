/// Reads a `project.pbxproj` into its native targets: each target's kind, the settings of its
/// build configurations (the project's under the target's), the Swift files of its sources
/// phase, its synchronized folders (Xcode 16), the local Swift packages it depends on, and the
/// libraries it links. Paths are resolved through the group tree as Xcode does
/// (`<group>`, `SOURCE_ROOT`, absolute); anything else (built products, the SDK) is not a source.
package struct XcodeProjectReader {
  private let objects: [String: [String: OldStyleValue]]
  private let path: String
  private let folder: String
  /// Each object's parent group, for resolving `<group>`-relative paths.
  private var parents: [String: String] = [:]
  /// The synchronized folders (Xcode 16), found once for every target to look through.
  private var synchronizedGroups: [(id: String, object: [String: OldStyleValue])] = []
  /// Reads the `.xcconfig` files the configurations are based on.
  private var xcconfigs: XCConfigReader
  /// How many groups up a path may be resolved (a hostile file's cycle ends here).
  static let maxGroupDepth = 64

  /// The targets of the project file at `path` (its text `text`), or why it cannot be read;
  /// `readFile` reads the `.xcconfig` files its configurations name.
  package static func targets(path: String, text: String, readFile: @escaping (String) -> String? = { _ in nil }) -> Result<[XcodeTarget], ScanTrouble> {
    switch OldStylePlistReader.read(text) {
    case let .failure(trouble): return .failure(ScanTrouble("not a project file: \(trouble.description)"))
    case let .success(root):
      guard let objects = root.dictionary?["objects"]?.dictionary else { return .failure(ScanTrouble("not a project file: no objects")) }
      var reader = XcodeProjectReader(objects: objects.compactMapValues(\.dictionary), path: path, readFile: readFile)
      return .success(reader.targets(root: root.dictionary?["rootObject"]?.string))
    }
  }

  private init(objects: [String: [String: OldStyleValue]], path: String, readFile: @escaping (String) -> String?) {
    self.objects = objects
    self.path = path
    xcconfigs = XCConfigReader(readFile: readFile)
    // project.pbxproj sits in X.xcodeproj, whose folder the project's paths start from.
    folder = ScanPath.folder(of: ScanPath.folder(of: path))
    for (id, object) in objects.sorted(by: { $0.key < $1.key }) {
      for child in object["children"]?.strings ?? [] where parents[child] == nil { parents[child] = id }
      if object["isa"]?.string == "PBXFileSystemSynchronizedRootGroup" { synchronizedGroups.append((id, object)) }
    }
  }

  private mutating func targets(root: String?) -> [XcodeTarget] {
    let project = root.flatMap { objects[$0] } ?? objects.values.first { $0["isa"]?.string == "PBXProject" }
    let projectSettings = configurations(project?["buildConfigurationList"]?.string, over: [])
    let ids = project?["targets"]?.strings ?? objects.keys.sorted().filter { objects[$0]?["isa"]?.string == "PBXNativeTarget" }
    return ids.compactMap { id in
      guard let target = objects[id], target["isa"]?.string == "PBXNativeTarget" else { return nil }
      return makeTarget(id: id, target, projectSettings: projectSettings)
    }
  }

  private mutating func makeTarget(id: String, _ target: [String: OldStyleValue], projectSettings: [(name: String, settings: [String: String])]) -> XcodeTarget {
    var merged = configurations(target["buildConfigurationList"]?.string, over: projectSettings)
    if merged.isEmpty { merged = projectSettings }
    let release = (merged.first { $0.name == "Release" } ?? merged.first)?.settings ?? [:]
    let kind = TargetKind.of(productType: target["productType"]?.string ?? "", sdk: release["SDKROOT"] ?? "",
                             platforms: (release["SUPPORTED_PLATFORMS"] ?? "").split(separator: " ").map(String.init))
    var files: Set<String> = []
    for phase in target["buildPhases"]?.strings ?? [] where objects[phase]?["isa"]?.string == "PBXSourcesBuildPhase" {
      for buildFile in objects[phase]?["files"]?.strings ?? [] {
        if let reference = objects[buildFile]?["fileRef"]?.string, let file = resolvedPath(reference), file.hasSuffix(".swift") { files.insert(file) }
      }
    }
    var folders: [String] = []
    var excluded: Set<String> = []
    let owned = Set(target["fileSystemSynchronizedGroups"]?.strings ?? [])
    for group in owned.sorted() {
      guard let groupPath = resolvedPath(group) else { continue }
      folders.append(groupPath)
    }
    // A synchronized folder's exception set for this target leaves files out of it when the
    // target owns the folder, and brings them in when it does not.
    for (group, object) in synchronizedGroups {
      guard let groupPath = resolvedPath(group) else { continue }
      for exception in object["exceptions"]?.strings ?? [] where objects[exception]?["target"]?.string == id {
        for file in objects[exception]?["membershipExceptions"]?.strings ?? [] {
          let path = ScanPath.joined(groupPath, file)
          if owned.contains(group) { excluded.insert(path) } else if path.hasSuffix(".swift") { files.insert(path) }
        }
      }
    }
    var products: [String] = []
    var packages: [String] = []
    for dependency in target["packageProductDependencies"]?.strings ?? [] {
      guard let package = objects[dependency]?["package"]?.string else {
        // A local package the workspace or a folder reference holds: found by its product's name.
        if let product = objects[dependency]?["productName"]?.string { products.append(product) }
        continue
      }
      guard let reference = objects[package],
            reference["isa"]?.string == "XCLocalSwiftPackageReference", let relative = reference["relativePath"]?.string else { continue }
      packages.append(ScanPath.joined(folder, relative))
    }
    let linked = (target["dependencies"]?.strings ?? []).compactMap { objects[$0]?["target"]?.string }
    return XcodeTarget(name: target["name"]?.string ?? id, kind: kind, project: path, projectFolder: folder, configurations: merged,
                       sourceFiles: files, sourceFolders: folders, packageFolders: packages, excludedFiles: excluded, linkedTargets: linked, id: id,
                       packageProducts: products)
  }

  /// The settings of each configuration in a configuration list, in its order, layered as
  /// Xcode layers them: `lower` (the project's configuration of the same name), the
  /// configuration's `.xcconfig`, then its own build settings (`$(inherited)` resolved).
  private mutating func configurations(_ list: String?, over lower: [(name: String, settings: [String: String])]) -> [(name: String, settings: [String: String])] {
    guard let list, let ids = objects[list]?["buildConfigurations"]?.strings else { return [] }
    return ids.compactMap { id in
      guard let configuration = objects[id] else { return nil }
      let name = configuration["name"]?.string ?? id
      var settings = lower.first { $0.name == name }?.settings ?? [:]
      if let xcconfig = xcconfigPath(configuration) { settings = xcconfigs.settings(xcconfig, base: settings) }
      for (key, value) in configuration["buildSettings"]?.dictionary ?? [:] {
        guard let text = value.string ?? value.array.map({ $0.compactMap(\.string).joined(separator: " ") }) else { continue }
        settings[key] = XCConfigReader.inheriting(text, from: settings[key])
      }
      return (name, settings)
    }
  }

  /// The `.xcconfig` a configuration is based on: a file reference, or (Xcode 16) a folder and
  /// a path within it.
  private func xcconfigPath(_ configuration: [String: OldStyleValue]) -> String? {
    if let reference = configuration["baseConfigurationReference"]?.string { return resolvedPath(reference) }
    guard let anchor = configuration["baseConfigurationReferenceAnchor"]?.string, let folder = resolvedPath(anchor),
          let relative = configuration["baseConfigurationReferenceRelativePath"]?.string else { return nil }
    return ScanPath.joined(folder, relative)
  }

  /// The path of a file reference or group, normalised, from the project's folder; nil when it
  /// is not a source (built products, the SDK) or its groups cannot be followed.
  private func resolvedPath(_ id: String) -> String? {
    var parts: [String] = []
    var current: String? = id
    for _ in 0..<Self.maxGroupDepth {
      guard let id = current, let object = objects[id] else { return nil }
      let own = object["path"]?.string ?? ""
      switch object["sourceTree"]?.string ?? "<group>" {
      case "<absolute>": return ScanPath.normalised(([own] + parts.reversed()).joined(separator: "/"))
      case "SOURCE_ROOT": return ScanPath.joined(folder, ([own] + parts.reversed()).joined(separator: "/"))
      case "<group>":
        if !own.isEmpty { parts.append(own) }
        guard let parent = parents[id] else {
          // The main group: its own path (if any) is from the project's folder.
          return ScanPath.joined(folder, parts.reversed().joined(separator: "/"))
        }
        current = parent
      default: return nil
      }
    }
    return nil
  }
}
