import EventStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A script problem, reported as `file:line: message` (line when known).
public struct ScriptError: Error, Equatable, CustomStringConvertible, Sendable {
  public let message: String
  public init(_ message: String) { self.message = message }
  public init(file: String, line: Int? = nil, _ message: String) {
    self.message = line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
  }
  public var description: String { message }
}

/// Reads a script file: UTF-8, at most 4 MiB; errors name the file.
public func readScriptFile(_ path: String) throws(ScriptError) -> String { try ScriptLoader.readFile(path) }

/// The modules the app `source` (at `path`) requires, read from the file system, as the app's
/// side sees them (`ModuleSide`).
public func requiredModules(of source: String, path: String, searchPath: [String]) throws(ScriptError) -> [EmbeddedScript] {
  var found: [EmbeddedScript] = []
  try ScriptLoader(source: .files(searchPath: searchPath)).modules(requiredBy: source, path: path, side: .app, into: &found)
  return found
}

/// Where `relative` (a scenario's `app = "…"`) leads from the script at `script`: its folder joined to it.
public func scriptPath(_ relative: String, besideScript script: String) -> String {
  ScriptLoader.join(ScriptLoader.directory(of: script), relative)
}

/// Where scripts come from: the file system, or the scripts embedded in a log's header.
public enum ScriptSource: Sendable {
  /// Files; `require` looks in the requiring script's folder, then in each of `searchPath`.
  case files(searchPath: [String])
  /// Files, with the command line's search path (`ModuleSearchPath.folders(libs:)`), worked out
  /// only when a module is looked for: finding the bundled library from the executable's path
  /// was a tenth of a one-verb run that requires nothing.
  case commandLine(libs: [String])
  case embedded([EmbeddedScript])
}

/// Reads scripts and resolves `require` (a module is a file under the requiring script's
/// folder or a folder of the search path, named with dots: `lib.util` is `lib/util.lua`).
package struct ScriptLoader {
  package let source: ScriptSource

  package init(source: ScriptSource) { self.source = source }
  /// The largest script accepted.
  package static let scriptBytesMax = 4 << 20

  /// Reads a whole file as UTF-8.
  package static func readFile(_ path: String) throws(ScriptError) -> String {
    let fd: Int32
    switch POSIXFile.openForReading(path) {
    case let .success(opened): fd = opened
    case let .failure(error): throw ScriptError(file: path, "cannot read: \(POSIXFile.describe(error.code))")
    }
    defer { POSIXFile.close(fd) }
    let info = POSIXFile.typeAndSize(fd)
    if info?.type == S_IFDIR {
      throw ScriptError(file: path, "is a directory; give a script file (to run every scenario in a folder, use `lifesim test`)")
    }
    var bytes: [UInt8] = []
    // A chunk the file's size fits in (one read for most scripts), 64 KiB at most: a fixed
    // 64 KiB buffer, zeroed, cost sixteen fresh pages in a run whose scripts are a few lines.
    let sizeGuess = (info?.size ?? 0) > 0 ? (info?.size ?? 0) + 1 : 4096
    var chunk = [UInt8](repeating: 0, count: min(sizeGuess, 65536))
    while true {
      // A read error is the script's trouble: a script cut short could run, and pass.
      let read = chunk.withUnsafeMutableBytes { POSIXFile.read(fd, into: $0.baseAddress!, count: $0.count) }
      let n: Int
      switch read {
      case let .success(count): n = count
      case let .failure(error): throw ScriptError(file: path, "cannot read: \(POSIXFile.describe(error.code))")
      }
      guard n > 0 else { break }
      bytes.append(contentsOf: chunk[0..<n])
      if bytes.count > scriptBytesMax { throw ScriptError(file: path, "larger than \(scriptBytesMax >> 20) MiB") }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else { throw ScriptError(file: path, "not valid UTF-8") }
    return text
  }

  package func read(_ path: String, role: String) throws(ScriptError) -> String {
    switch source {
    case .files, .commandLine: return try Self.readFile(path)
    case let .embedded(scripts):
      guard let s = scripts.first(where: { $0.path == path && $0.role == role }) else {
        throw ScriptError(file: path, "not embedded in the log")
      }
      return s.source
    }
  }

  /// `dir/../x.lua` → `x.lua`: joins and normalises without touching the disk.
  package static func join(_ dir: String, _ path: String) -> String {
    if path.hasPrefix("/") { return normalize(path) }
    return normalize(dir.isEmpty ? path : dir + "/" + path)
  }

  package static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return String(path[..<slash])
  }

  package static func normalize(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    var parts: [Substring] = []
    for p in path.split(separator: "/", omittingEmptySubsequences: true) {
      if p == "." { continue }
      if p == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
      if p == "..", absolute { continue }
      parts.append(p)
    }
    return (absolute ? "/" : "") + parts.joined(separator: "/")
  }

  package static func isModuleName(_ name: String) -> Bool {
    let segments = name.split(separator: ".", omittingEmptySubsequences: false)
    guard !segments.isEmpty, name.utf8.count <= 200 else { return false }
    for s in segments {
      guard let first = s.first, first == "_" || first.isLetter, first.isASCII else { return false }
      guard s.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else { return false }
    }
    return true
  }

  /// Finds every module `source` requires (literal names only), recursively, for one side's
  /// Lua state (each entry's role is `require:<name>`; `ModuleSide.headerEntries` names them in a header).
  package func modules(requiredBy source: String, path: String, side: ModuleSide,
               into found: inout [EmbeddedScript]) throws(ScriptError) {
    for (name, line) in Self.literalRequires(in: source) {
      guard Self.isModuleName(name) else {
        throw ScriptError(file: path, line: line, "require \"\(name)\": module names are dotted names of files under the script's folder or the search path (no paths)")
      }
      if found.contains(where: { $0.role == ModuleSide.role(name) }) { continue }
      let module = try resolve(name, from: path, line: line, side: side)
      found.append(module)
      try modules(requiredBy: module.source, path: module.path, side: side, into: &found)
    }
  }

  package func resolve(_ name: String, from path: String, line: Int?, side: ModuleSide) throws(ScriptError) -> EmbeddedScript {
    let relative = name.split(separator: ".").joined(separator: "/") + ".lua"
    switch source {
    case let .embedded(scripts):
      guard let s = side.embedded(name, in: scripts) else {
        throw ScriptError(file: path, line: line, "require \"\(name)\": module not embedded in the log")
      }
      return EmbeddedScript(role: ModuleSide.role(name), path: s.path, source: s.source)
    case let .files(searchPath):
      return try Self.resolve(relative, named: name, in: [Self.directory(of: path)] + searchPath, from: path, line: line)
    case let .commandLine(libs):
      return try Self.resolve(relative, named: name, in: [Self.directory(of: path)] + ModuleSearchPath.folders(libs: libs),
                              from: path, line: line)
    }
  }

  /// The first of `folders` holding the module file `relative`, read.
  private static func resolve(_ relative: String, named name: String, in folders: [String], from path: String,
                              line: Int?) throws(ScriptError) -> EmbeddedScript {
    for folder in folders {
      let candidate = join(folder, relative)
      if POSIXFile.isReadable(candidate) {
        return EmbeddedScript(role: ModuleSide.role(name), path: candidate, source: try readFile(candidate))
      }
    }
    let looked = folders.map { $0.isEmpty ? "." : $0 }.joined(separator: ", ")
    throw ScriptError(file: path, line: line, "require \"\(name)\": no \(relative) in \(looked) (add a folder with --lib DIR or LIFESIM_PATH)")
  }

  /// `require "x"` / `require("x")` / `require 'x'` with a literal name, and its line.
  package static func literalRequires(in source: String) -> [(String, Int)] {
    var out: [(String, Int)] = []
    let bytes = Array(source.utf8)
    let word = Array("require".utf8)
    var line = 1
    var i = 0
    while i < bytes.count {
      let c = bytes[i]
      if c == 0x0A { line += 1; i += 1; continue }
      if c == UInt8(ascii: "-"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "-") {
        while i < bytes.count, bytes[i] != 0x0A { i += 1 }
        continue
      }
      if i + word.count <= bytes.count, Array(bytes[i..<(i + word.count)]) == word,
         i == 0 || !(bytes[i - 1].isIdentifierByte) {
        var j = i + word.count
        while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == UInt8(ascii: "(") { j += 1 }
        if j < bytes.count, bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") {
          let quote = bytes[j]
          var k = j + 1
          while k < bytes.count, bytes[k] != quote, bytes[k] != 0x0A { k += 1 }
          if k < bytes.count, bytes[k] == quote {
            out.append((String(decoding: bytes[(j + 1)..<k], as: UTF8.self), line))
          }
          i = k
          continue
        }
        i = j
        continue
      }
      i += 1
    }
    return out
  }
}

private extension UInt8 {
  var isIdentifierByte: Bool {
    (self >= 0x30 && self <= 0x39) || (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) || self == 0x5F
  }
}
