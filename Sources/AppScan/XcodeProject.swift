import FoundationEssentials

/// What an Xcode target builds, as a scan sorts targets: iOS apps are scanned as apps; the
/// others are listed as what they are; libraries lend their sources to the apps that link them.
package enum TargetKind: String, Sendable, Equatable {
  case iOSApp = "ios_app"
  case appExtension = "app_extension"
  case watchApp = "watch_app"
  case watchExtension = "watch_extension"
  case macOSApp = "macos_app"
  case library
  case test
  case other

  /// The kind of a native target from its `productType` and the platforms it builds for.
  static func of(productType: String, sdk: String, platforms: [String]) -> TargetKind {
    let type = productType.replacing("com.apple.product-type.", with: "")
    if type.hasPrefix("application.watchapp") { return .watchApp }
    if type.hasPrefix("watchkit") { return .watchExtension }
    if type.hasPrefix("app-extension") || type.hasPrefix("extensionkit") || type == "tv-app-extension" { return .appExtension }
    if type.hasPrefix("framework") || type.hasPrefix("library") { return .library }
    if type.hasPrefix("bundle.unit-test") || type.hasPrefix("bundle.ui-testing") { return .test }
    guard type == "application" || type == "application.messages" else { return .other }
    let builds = platforms.isEmpty ? [sdk] : platforms
    if builds.contains(where: { $0.hasPrefix("iphoneos") || $0 == "auto" }) || (platforms.isEmpty && sdk.isEmpty) { return .iOSApp }
    if builds.contains(where: { $0.hasPrefix("watchos") }) { return .watchApp }
    if builds.contains(where: { $0.hasPrefix("macosx") }) { return .macOSApp }
    return .other
  }

  /// How the text report names it.
  var title: String {
    switch self {
    case .iOSApp: return "iOS app"
    case .appExtension: return "app extension"
    case .watchApp: return "watchOS app"
    case .watchExtension: return "watchOS extension"
    case .macOSApp: return "macOS app"
    case .library: return "library"
    case .test: return "tests"
    case .other: return "other target"
    }
  }
}

/// One native target of a project: its name, kind, the build settings of its shipping
/// configuration over the project's, and the files it compiles.
package struct XcodeTarget: Sendable {
  package let name: String
  package let kind: TargetKind
  /// The project.pbxproj that declares it.
  package let project: String
  /// The folder the project's relative paths start from (the folder holding the .xcodeproj).
  package let projectFolder: String
  /// Each build configuration's settings (target over project), by configuration name.
  package let configurations: [(name: String, settings: [String: String])]
  /// The Swift files it compiles, its source folders (synchronized groups and local packages:
  /// every Swift file under them), and the files those folders leave out.
  package let sourceFiles: Set<String>
  package let sourceFolders: [String]
  /// The local Swift packages it depends on: the Swift files under their `Sources/` count.
  package var packageFolders: [String]
  package let excludedFiles: Set<String>
  /// The libraries it links (their target ids).
  let linkedTargets: [String]
  let id: String
  /// Package products it depends on whose package the project does not name (a workspace's or a
  /// folder reference's local package): a scanned folder of that name holding a Package.swift.
  let packageProducts: [String]

  /// The configuration a scan reads: `Release` (what ships), else the first.
  package var settings: [String: String] {
    (configurations.first { $0.name == "Release" } ?? configurations.first)?.settings ?? [:]
  }

  /// `$(SRCROOT)`, `${PROJECT_DIR}`, `$(TARGET_NAME)`, and settings the target defines, in
  /// `value` replaced; nil when it names a setting the scan does not know. A path comes out
  /// relative to the project's folder (`$(SRCROOT)` is `.`).
  package func expanded(_ value: String) -> String? {
    var known = ["SRCROOT": ".", "PROJECT_DIR": ".", "SOURCE_ROOT": ".", "TARGET_NAME": name,
                 "PROJECT_NAME": (projectFolder.split(separator: "/").last.map(String.init) ?? "")]
    known["PRODUCT_NAME"] = settings["PRODUCT_NAME"].flatMap { $0.contains("$") ? nil : $0 } ?? name
    var result = ""
    var rest = Substring(value)
    while let dollar = rest.firstIndex(of: "$") {
      result += rest[..<dollar]
      let after = rest[rest.index(after: dollar)...]
      guard let open = after.first, open == "(" || open == "{",
            let close = after.firstIndex(of: open == "(" ? ")" : "}") else { return nil }
      let variable = after[after.index(after: after.startIndex)..<close].split(separator: ":").first.map(String.init) ?? ""
      guard let replacement = known[variable] ?? settings[variable].flatMap({ $0.contains("$") ? nil : $0 }) else { return nil }
      result += replacement
      rest = after[after.index(after: close)...]
    }
    return result + rest
  }

  /// Whether the target compiles the Swift file at `path` (normalised as `ScanPath.normalised`):
  /// a file of its sources phase, one in its synchronized folders that no exception leaves out,
  /// or one in the `Sources/` of a local package it depends on.
  package func compiles(_ path: String) -> Bool {
    if sourceFiles.contains(path) { return true }
    guard !excludedFiles.contains(path) else { return false }
    return sourceFolders.contains { ScanPath.contains($0, path) } || packageFolders.contains { ScanPath.contains(ScanPath.joined($0, "Sources"), path) }
  }
}

/// Paths as a scan compares them: `a/./b/../c` is `a/c`, without touching the file system.
enum ScanPath {
  static func normalised(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
      parts.append(part)
    }
    let joined = parts.joined(separator: "/")
    return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
  }

  /// `folder/relative`, normalised; an absolute `relative` stands alone.
  static func joined(_ folder: String, _ relative: String) -> String {
    normalised(relative.hasPrefix("/") ? relative : folder + "/" + relative)
  }

  /// Whether `path` lies under `folder` (both normalised): `.` holds every relative path.
  static func contains(_ folder: String, _ path: String) -> Bool {
    folder == "." ? !path.hasPrefix("/") && !path.hasPrefix("..") : path.hasPrefix(folder == "/" ? "/" : folder + "/")
  }

  /// `path` made absolute from the working folder, normalised.
  static func absolute(_ path: String) -> String {
    normalised(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
  }

  /// The folder of `path`.
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}
