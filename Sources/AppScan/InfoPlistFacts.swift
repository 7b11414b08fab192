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
  static func read(path: String, data: Data) -> Result<InfoPlistFacts?, ScanTrouble> {
    let root: Any
    do { root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) } catch {
      return .failure(ScanTrouble("not a property list (XML or binary)"))
    }
    guard let plist = root as? [String: Any] else { return .failure(ScanTrouble("the property list is not a dictionary")) }
    let appKeys = ["UIApplicationSceneManifest", "BGTaskSchedulerPermittedIdentifiers", "UIBackgroundModes",
                   "UIMainStoryboardFile", "UILaunchStoryboardName", "LSRequiresIPhoneOS"]
    guard plist["NSExtension"] == nil, appKeys.contains(where: { plist[$0] != nil }) else { return .success(nil) }
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

/// A project whose Info.plist the build generates: the scene manifest's generation flag from
/// project.pbxproj (`INFOPLIST_KEY_UIApplicationSceneManifest_Generation = YES`).
enum GeneratedInfoPlist {
  /// Whether the project generates an Info.plist with scenes (nil: the project does not say).
  static func declaresScenes(projectText: String) -> Bool? {
    guard projectText.contains("GENERATE_INFOPLIST_FILE = YES") else { return nil }
    return projectText.contains("INFOPLIST_KEY_UIApplicationSceneManifest_Generation = YES")
  }
}
