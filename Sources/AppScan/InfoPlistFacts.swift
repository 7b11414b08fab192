import Foundation

/// What the app's Info.plist declares about its lifecycle, with the lines of its keys (an XML
/// plist's; a binary plist has no lines, so its places are line 1).
package struct InfoPlistFacts: Sendable {
  package let path: String
  /// The manifest declares at least one scene configuration.
  package let declaresScenes: Bool
  /// The scene delegate classes the manifest's configurations name.
  package let sceneDelegateClasses: [String]
  package let permittedIdentifiers: [(identifier: String, line: Int)]
  package let backgroundModes: [String]
  package let mainStoryboard: String?
  /// `UIApplicationSceneManifest`'s line, or the first line.
  package let manifestLine: Int

  /// The plist at `path`, or why it is not one; nil for an extension's or a test bundle's plist.
  /// `merged`: the file a generated Info.plist merges in, read whatever keys it holds.
  static func read(path: String, data: Data, merged: Bool = false) -> Result<InfoPlistFacts?, ScanTrouble> {
    let root: Any
    do { root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) } catch {
      return .failure(ScanTrouble("not a property list (XML or binary)"))
    }
    guard let plist = root as? [String: Any] else { return .failure(ScanTrouble("the property list is not a dictionary")) }
    let appKeys = ["UIApplicationSceneManifest", "BGTaskSchedulerPermittedIdentifiers", "UIBackgroundModes",
                   "UIMainStoryboardFile", "UILaunchStoryboardName", "LSRequiresIPhoneOS"]
    guard merged || (plist["NSExtension"] == nil && appKeys.contains(where: { plist[$0] != nil })) else { return .success(nil) }
    let lines = PlistLines(data: data)
    let manifest = plist["UIApplicationSceneManifest"] as? [String: Any]
    let configurations = (manifest?["UISceneConfigurations"] as? [String: Any]) ?? [:]
    var delegates: [String] = []
    for role in configurations.keys.sorted() {
      for configuration in configurations[role] as? [[String: Any]] ?? [] {
        if let name = configuration["UISceneDelegateClassName"] as? String { delegates.append(Self.className(name)) }
      }
    }
    let permitted = (plist["BGTaskSchedulerPermittedIdentifiers"] as? [Any] ?? []).compactMap { $0 as? String }
    return .success(InfoPlistFacts(
      path: path, declaresScenes: !configurations.isEmpty, sceneDelegateClasses: delegates,
      permittedIdentifiers: permitted.map { ($0, lines.line(ofString: $0, after: "BGTaskSchedulerPermittedIdentifiers")) },
      backgroundModes: (plist["UIBackgroundModes"] as? [Any] ?? []).compactMap { $0 as? String },
      mainStoryboard: plist["UIMainStoryboardFile"] as? String,
      manifestLine: lines.line(ofKey: "UIApplicationSceneManifest")))
  }

  /// `$(PRODUCT_MODULE_NAME).SceneDelegate` names the class `SceneDelegate`.
  static func className(_ name: String) -> String {
    String(name.split(separator: ".").last ?? Substring(name))
  }
}

/// Line numbers in an XML plist's text, found by the keys and strings it holds.
struct PlistLines {
  private let lines: [Substring]

  init(data: Data) {
    let isXML = data.starts(with: Array("<?xml".utf8)) || data.starts(with: Array("<!DOCTYPE".utf8)) || data.starts(with: Array("<plist".utf8))
    lines = isXML ? String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) : []
  }

  /// The line of `<key>KEY</key>`, or 1.
  func line(ofKey key: String) -> Int {
    (lines.firstIndex { $0.contains("<key>\(Self.escaped(key))</key>") } ?? 0) + 1
  }

  /// The line of `<string>TEXT</string>` after `<key>KEY</key>`, or the key's line.
  func line(ofString text: String, after key: String) -> Int {
    let start = line(ofKey: key) - 1
    guard start < lines.count else { return 1 }
    let needle = "<string>\(Self.escaped(text))</string>"
    return (lines[start...].firstIndex { $0.contains(needle) } ?? start) + 1
  }

  private static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
  }
}

/// A project whose Info.plist the build generates (`GENERATE_INFOPLIST_FILE = YES` in
/// project.pbxproj). Xcode builds it from `INFOPLIST_KEY_*` settings, which exist only for some
/// keys: the scene manifest (`INFOPLIST_KEY_UIApplicationSceneManifest_Generation`) is one;
/// `UIBackgroundModes` and `BGTaskSchedulerPermittedIdentifiers` are not (the generator ignores
/// such settings), so they come from the file `INFOPLIST_FILE` names, which the build merges in.
package struct GeneratedInfoPlist: Sendable, Equatable {
  /// The project.pbxproj.
  package let project: String
  /// The generated manifest declares scenes.
  package let declaresScenes: Bool
  /// Each `INFOPLIST_FILE` the project's configurations name, as written (relative to the project's folder).
  package let mergedFiles: [String]

  /// The project at `path`, nil when it does not generate an Info.plist.
  static func read(path: String, text: String) -> GeneratedInfoPlist? {
    var settings: [String: [String]] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let key = parts[0].trimmingCharacters(in: .whitespaces)
      var value = parts[1].trimmingCharacters(in: .whitespaces)
      if value.hasSuffix(";") { value.removeLast() }
      if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
      if !settings[key, default: []].contains(value) { settings[key, default: []].append(value) }
    }
    guard settings["GENERATE_INFOPLIST_FILE"]?.contains("YES") == true else { return nil }
    return GeneratedInfoPlist(project: path, declaresScenes: settings["INFOPLIST_KEY_UIApplicationSceneManifest_Generation"]?.contains("YES") == true,
                              mergedFiles: settings["INFOPLIST_FILE"] ?? [])
  }

  /// Whether the plist at `path` is one the build merges into the generated one.
  func merges(_ path: String) -> Bool {
    mergedFiles.contains { !$0.isEmpty && (path == $0 || path.hasSuffix("/" + $0)) }
  }
}
