/// Reads an `.xcconfig` file's build settings: `KEY = VALUE` lines, `//` comments, and
/// `#include "…"` / `#include? "…"` of other files (relative to the including file), at most
/// `maxIncludes` files deep and `maxFiles` distinct files in all. Settings conditional on an SDK or
/// architecture (`KEY[sdk=iphoneos*] = …`) are left out: the scan reads the unconditional ones.
struct XCConfigReader {
  static let maxIncludes = 8
  static let maxFiles = 64
  /// Reads a file's text, nil when it cannot (missing, too large, outside the scanned folders).
  let readFile: (String) -> String?
  /// Each file's text once read (nil: could not), so that a project's configurations including
  /// the same file read it once and count it once.
  private var texts: [String: String?] = [:]

  init(readFile: @escaping (String) -> String?) { self.readFile = readFile }

  /// The settings of the file at `path`, `$(inherited)` resolved against `base` and each earlier line.
  mutating func settings(_ path: String, base: [String: String]) -> [String: String] {
    var settings = base
    read(path, depth: 0, into: &settings)
    return settings
  }

  private mutating func read(_ path: String, depth: Int, into settings: inout [String: String]) {
    guard depth < Self.maxIncludes, let text = text(path) else { return }
    let folder = ScanPath.folder(of: path)
    for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
      var line = Substring(rawLine)
      if let comment = line.firstRange(of: "//") { line = line[..<comment.lowerBound] }
      let trimmed = line.trimmingBlanks
      if trimmed.hasPrefix("#include") {
        guard let open = trimmed.firstIndex(of: "\""), let close = trimmed[trimmed.index(after: open)...].firstIndex(of: "\"") else { continue }
        let included = String(trimmed[trimmed.index(after: open)..<close])
        read(ScanPath.joined(folder, included), depth: depth + 1, into: &settings)
        continue
      }
      let parts = trimmed.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let key = parts[0].trimmingBlanks
      guard !key.isEmpty, !key.contains("["), key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
      var value = parts[1].trimmingBlanks
      if value.hasSuffix(";") { value.removeLast() }
      settings[key] = Self.inheriting(value, from: settings[key])
    }
  }

  /// The text of `path`, read once; nil past `maxFiles` distinct files or when it cannot be read.
  private mutating func text(_ path: String) -> String? {
    if let known = texts[path] { return known }
    guard texts.count < Self.maxFiles else { return nil }
    let read = readFile(path)
    texts[path] = .some(read)
    return read
  }

  /// `value` with `$(inherited)` replaced by the value below it.
  static func inheriting(_ value: String, from lower: String?) -> String {
    guard value.contains("inherited") else { return value }
    return value.replacing("$(inherited)", with: lower ?? "").replacing("${inherited}", with: lower ?? "")
      .trimmingBlanks
  }
}
