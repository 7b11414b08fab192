import FoundationEssentials

/// What the app's Info.plist declares about its lifecycle, with the lines of its keys (an XML
/// plist's; a binary plist has no lines, so its places are line 1).
package struct InfoPlistFacts: Sendable {
  package let path: String
  /// `UIApplicationSceneManifest` as the file has it: `none`, `empty` (no configurations) or `configured`.
  package let sceneManifest: String
  /// The scene delegate classes the manifest's configurations name, with their session role
  /// (`UIWindowSceneSessionRoleApplication`, `CPTemplateApplicationSceneSessionRoleApplication`, …)
  /// and the line that names them.
  /// Each configuration's `UISceneDelegateClassName`, its role, its `UISceneConfigurationName`
  /// (nil when it has none) and the plist line.
  package let sceneDelegates: [(className: String, role: String, configuration: String?, line: Int)]
  package let permittedIdentifiers: [(identifier: String, line: Int)]
  package let backgroundModes: [String]
  package let mainStoryboard: String?
  /// `UIApplicationSceneManifest`'s line, or the first line.
  package let manifestLine: Int
  /// What preprocessing did, when the file has `#if` lines: the conditions whose branches were
  /// both read, and whether an `#include` was left out.
  package var preprocessing: InfoPlistPreprocessor.Output?

  /// The plist at `path`, or why it is not one; nil for an extension's or a test bundle's plist.
  /// `merged`: the file a generated Info.plist merges in, read whatever keys it holds.
  /// `preprocessor`: the macros a target defines for a plist the build preprocesses.
  static func read(path: String, data: Data, merged: Bool = false,
                   preprocessor: InfoPlistPreprocessor = InfoPlistPreprocessor(macros: [:], closedWorld: false)) -> Result<InfoPlistFacts?, ScanTrouble> {
    var data = data
    var preprocessing: InfoPlistPreprocessor.Output?
    if !data.starts(with: Array("bplist".utf8)), case let text = String(decoding: data, as: UTF8.self), InfoPlistPreprocessor.hasDirectives(text) {
      switch preprocessor.run(text) {
      case let .failure(trouble): return .failure(ScanTrouble("cannot preprocess: \(trouble.description)"))
      case let .success(output):
        preprocessing = output
        data = Data(output.text.utf8)
      }
    }
    let root: Any
    do { root = try PropertyList.parse(data) } catch {
      let after = preprocessing.map { $0.undecided.isEmpty ? " after preprocessing" : " after preprocessing, reading both branches of " + $0.undecided.joined(separator: ", ") } ?? ""
      return .failure(ScanTrouble("not a property list (XML or binary)\(after)"))
    }
    guard let plist = root as? [String: Any] else { return .failure(ScanTrouble("the property list is not a dictionary")) }
    let appKeys = ["UIApplicationSceneManifest", "BGTaskSchedulerPermittedIdentifiers", "UIBackgroundModes",
                   "UIMainStoryboardFile", "UILaunchStoryboardName", "LSRequiresIPhoneOS"]
    guard merged || (plist["NSExtension"] == nil && plist["WKWatchKitApp"] == nil && plist["WKApplication"] == nil
                     && appKeys.contains(where: { plist[$0] != nil })) else { return .success(nil) }
    let lines = PlistLines(data: data)
    let manifest = plist["UIApplicationSceneManifest"] as? [String: Any]
    let configurations = (manifest?["UISceneConfigurations"] as? [String: Any]) ?? [:]
    let manifestLines = lines.stringLines(after: "UIApplicationSceneManifest")
    var delegates: [(String, String, String?, Int)] = []
    for role in configurations.keys.sorted() {
      for configuration in configurations[role] as? [[String: Any]] ?? [] {
        guard let name = configuration["UISceneDelegateClassName"] as? String else { continue }
        delegates.append((Self.className(name), role, configuration["UISceneConfigurationName"] as? String,
                          manifestLines[name] ?? lines.line(ofKey: "UIApplicationSceneManifest")))
      }
    }
    let permittedLines = lines.stringLines(after: "BGTaskSchedulerPermittedIdentifiers")
    let keyLine = lines.line(ofKey: "BGTaskSchedulerPermittedIdentifiers")
    let permitted = (plist["BGTaskSchedulerPermittedIdentifiers"] as? [Any] ?? []).compactMap { $0 as? String }
    var facts = InfoPlistFacts(
      path: path,
      sceneManifest: manifest == nil ? "none" : (configurations.isEmpty ? "empty" : "configured"), sceneDelegates: delegates,
      permittedIdentifiers: permitted.map { ($0, permittedLines[$0] ?? keyLine) },
      backgroundModes: (plist["UIBackgroundModes"] as? [Any] ?? []).compactMap { $0 as? String },
      mainStoryboard: plist["UIMainStoryboardFile"] as? String,
      manifestLine: lines.line(ofKey: "UIApplicationSceneManifest"))
    facts.preprocessing = preprocessing
    return .success(facts)
  }

  /// `$(PRODUCT_MODULE_NAME).SceneDelegate` names the class `SceneDelegate`.
  static func className(_ name: String) -> String {
    String(name.split(separator: ".").last ?? Substring(name))
  }
}

/// Line numbers in an XML plist's text, found by the keys and strings it holds, indexed in one
/// pass over its bytes (a plist of tens of thousands of identifiers is read in linear time).
struct PlistLines {
  /// Each line's `<key>` and `<string>` texts, in order.
  private var elements: [(line: Int, isKey: Bool, text: String)] = []
  /// Each key's first line (1-based).
  private var keyLines: [String: Int] = [:]

  init(data: Data) {
    let isXML = data.starts(with: Array("<?xml".utf8)) || data.starts(with: Array("<!DOCTYPE".utf8)) || data.starts(with: Array("<plist".utf8))
    guard isXML else { return }
    let bytes = Array(data)
    var line = 1
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\n") { line += 1; index += 1; continue }
      guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
      if let (text, end) = Self.element(Self.keyTag, in: bytes, at: index) {
        elements.append((line, true, text))
        if keyLines[text] == nil { keyLines[text] = line }
        index = end
      } else if let (text, end) = Self.element(Self.stringTag, in: bytes, at: index) {
        elements.append((line, false, text))
        index = end
      } else {
        index += 1
      }
    }
  }

  /// The line of `<key>KEY</key>`, or 1.
  func line(ofKey key: String) -> Int { keyLines[key] ?? 1 }

  /// The first line of each `<string>TEXT</string>` from `<key>KEY</key>` on.
  func stringLines(after key: String) -> [String: Int] {
    guard let start = keyLines[key] else { return [:] }
    var found: [String: Int] = [:]
    for element in elements where element.line >= start && !element.isKey && found[element.text] == nil { found[element.text] = element.line }
    return found
  }

  private static let keyTag = (open: Array("<key>".utf8), close: Array("</key>".utf8))
  private static let stringTag = (open: Array("<string>".utf8), close: Array("</string>".utf8))

  /// The text of the element `tag` opened at `index` (on one line), entities decoded, and where it ends.
  private static func element(_ tag: (open: [UInt8], close: [UInt8]), in bytes: [UInt8], at index: Int) -> (String, Int)? {
    guard matches(tag.open, bytes, at: index) else { return nil }
    let start = index + tag.open.count
    var end = start
    while end < bytes.count, bytes[end] != UInt8(ascii: "<"), bytes[end] != UInt8(ascii: "\n") { end += 1 }
    guard matches(tag.close, bytes, at: end) else { return nil }
    let text = String(decoding: bytes[start..<end], as: UTF8.self)
    return (text.contains("&") ? decoded(text) : text, end + tag.close.count)
  }

  private static func matches(_ pattern: [UInt8], _ bytes: [UInt8], at index: Int) -> Bool {
    guard index + pattern.count <= bytes.count else { return false }
    for offset in pattern.indices where bytes[index + offset] != pattern[offset] { return false }
    return true
  }

  private static func decoded(_ text: String) -> String {
    text.replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&quot;", with: "\"")
      .replacing("&apos;", with: "'").replacing("&amp;", with: "&")
  }
}
