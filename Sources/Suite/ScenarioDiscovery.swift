import ScriptHost

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A scenario script found by `lifesim test`.
public struct ScenarioFile: Sendable, Equatable {
  /// The path as found (relative to the working directory when the argument was).
  public let path: String
  /// The file name without `.lua`: the case name's first part.
  public let name: String

  public init(path: String) {
    self.path = path
    let file = path.split(separator: "/").last.map(String.init) ?? path
    name = file.hasSuffix(".lua") ? String(file.dropLast(4)) : file
  }
}

/// Finds scenario scripts in files and folders: a `.lua` file that calls `scenario { … }`.
/// App scripts and required modules do not, so they are not cases.
public enum ScenarioDiscovery {
  /// The scenarios under `paths` (folders recursively, entries in byte order, hidden folders
  /// skipped), each once, keeping those whose name or path contains `filter`.
  public static func find(_ paths: [String], filter: String?) throws(SuiteError) -> [ScenarioFile] {
    var found: [ScenarioFile] = []
    var seen = Set<String>()
    for path in paths {
      let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
      var info = stat()
      guard stat(trimmed, &info) == 0 else {
        throw SuiteError("\(path): \(String(cString: strerror(errno)))")
      }
      if info.st_mode & S_IFMT == S_IFDIR {
        try walk(trimmed, into: &found, seen: &seen, depth: 0)
      } else {
        let source = try read(trimmed)
        guard isScenario(source) else {
          throw SuiteError("\(path): not a scenario (it never calls scenario { … }); name a scenario or a folder")
        }
        if seen.insert(trimmed).inserted { found.append(ScenarioFile(path: trimmed)) }
      }
    }
    guard let filter, !filter.isEmpty else { return found }
    return found.filter { $0.name.contains(filter) || $0.path.contains(filter) }
  }

  /// Folders nested deeper than this are not searched (a symbolic link loop ends here).
  static let depthMax = 32

  private static func walk(_ dir: String, into found: inout [ScenarioFile], seen: inout Set<String>, depth: Int) throws(SuiteError) {
    guard depth < depthMax, let handle = opendir(dir) else {
      if depth >= depthMax { return }
      throw SuiteError("\(dir): \(String(cString: strerror(errno)))")
    }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if !name.hasPrefix(".") { names.append(name) }
    }
    closedir(handle)
    for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      let path = dir == "." ? name : dir + "/" + name
      var info = stat()
      guard stat(path, &info) == 0 else { continue }  // a dangling link
      if info.st_mode & S_IFMT == S_IFDIR {
        try walk(path, into: &found, seen: &seen, depth: depth + 1)
      } else if name.hasSuffix(".lua"), isScenario(try read(path)), seen.insert(path).inserted {
        found.append(ScenarioFile(path: path))
      }
    }
  }

  private static func read(_ path: String) throws(SuiteError) -> String {
    do { return try readScriptFile(path) } catch { throw SuiteError(error.message) }
  }

  /// Whether `source` calls `scenario { … }` (or `scenario({ … })`) outside a comment.
  static func isScenario(_ source: String) -> Bool {
    let bytes = Array(source.utf8)
    let word = Array("scenario".utf8)
    var i = 0
    func skipSpaces(_ j: inout Int) { while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A || bytes[j] == 0x0D { j += 1 } }
    while i < bytes.count {
      if bytes[i] == UInt8(ascii: "-"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "-") {
        i = commentEnd(bytes, from: i + 2)
        continue
      }
      if bytes[i] == word[0], i + word.count <= bytes.count, bytes[i..<(i + word.count)].elementsEqual(word),
         i == 0 || !isNameByte(bytes[i - 1]) && bytes[i - 1] != UInt8(ascii: ".") && bytes[i - 1] != UInt8(ascii: ":") {
        var j = i + word.count
        skipSpaces(&j)
        if j < bytes.count, bytes[j] == UInt8(ascii: "(") { j += 1; skipSpaces(&j) }
        if j < bytes.count, bytes[j] == UInt8(ascii: "{") { return true }
        i += word.count
        continue
      }
      i += 1
    }
    return false
  }

  /// Where a comment starting after `--` at `from` ends: the line's end, or a long comment's `]]`.
  private static func commentEnd(_ bytes: [UInt8], from: Int) -> Int {
    var i = from
    if i + 1 < bytes.count, bytes[i] == UInt8(ascii: "["), bytes[i + 1] == UInt8(ascii: "[") {
      i += 2
      while i + 1 < bytes.count, !(bytes[i] == UInt8(ascii: "]") && bytes[i + 1] == UInt8(ascii: "]")) { i += 1 }
      return i + 2
    }
    while i < bytes.count, bytes[i] != 0x0A { i += 1 }
    return i
  }

  private static func isNameByte(_ b: UInt8) -> Bool {
    (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
  }
}
