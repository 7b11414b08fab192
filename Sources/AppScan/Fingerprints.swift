import EventStore
import FoundationEssentials

/// Where code scanning places a finding and how it knows it again: each diagnostic's file
/// relative to the repository root (the nearest folder above the scanned path that holds
/// `.git`, else the scanned folder), and a fingerprint that survives lines moving: the code,
/// the target, that file and the text of the finding's line (white space folded), hashed, with
/// its occurrence among equal ones (`3f2a…:1`).
enum Fingerprints {
  /// Sets `repositoryRoot`, and each diagnostic's `rootRelativeFile` and `fingerprint`.
  static func assign(_ result: inout ScanResult, scanned: String, limits: ScanLimits) {
    let root = repositoryRoot(of: scanned)
    result.repositoryRoot = root
    var lines: [String: [Substring]] = [:]
    var occurrences: [UInt64: Int] = [:]
    var total = 0
    for app in result.apps.indices {
      for index in result.apps[app].diagnostics.indices {
        let diagnostic = result.apps[app].diagnostics[index]
        let relative = relativePath(diagnostic.place.file, to: root)
        if lines[diagnostic.place.file] == nil {
          let data = (try? SourceDiscovery.read(diagnostic.place.file, limits: limits, total: &total).get()) ?? Data()
          lines[diagnostic.place.file] = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        }
        let fileLines = lines[diagnostic.place.file] ?? []
        let text = diagnostic.place.line >= 1 && diagnostic.place.line <= fileLines.count ? fileLines[diagnostic.place.line - 1] : ""
        let folded = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        let hash = FNV1a.hash(Array([diagnostic.code, diagnostic.target, relative, folded].joined(separator: "\u{0}").utf8))
        occurrences[hash, default: 0] += 1
        result.apps[app].diagnostics[index].rootRelativeFile = relative
        result.apps[app].diagnostics[index].fingerprint = String(hash, radix: 16).leftPadded(to: 16) + ":\(occurrences[hash]!)"
      }
    }
  }

  /// The nearest folder at or above `path` (absolute) that holds `.git`, else `path`'s folder.
  static func repositoryRoot(of path: String) -> String {
    let absolute = ScanPath.absolute(path)
    let start = POSIXFile.isDirectory(absolute) ? absolute : ScanPath.folder(of: absolute)
    var folder = start
    for _ in 0..<256 {
      if FileManager.default.fileExists(atPath: folder + "/.git") { return folder }
      let parent = ScanPath.folder(of: folder)
      if parent == folder { break }
      folder = parent
    }
    return start
  }

  /// `file` from `root`, when it lies under it; else its absolute path.
  static func relativePath(_ file: String, to root: String) -> String {
    let absolute = ScanPath.absolute(file)
    if root == "/" { return String(absolute.dropFirst()) }
    return absolute.hasPrefix(root + "/") ? String(absolute.dropFirst(root.count + 1)) : absolute
  }
}

private extension String {
  func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
