import EventStore
import ScriptHost

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `lifesim test` found: the scenarios to run, and every `.lua` file under the folders it
/// searched with what it is.
public struct Discovery: Sendable {
  /// The scenarios, in the order found, each once, kept by `--filter`.
  public let scenarios: [ScenarioFile]
  /// Every `.lua` file under the folders searched (and each file named), in the order found.
  public let files: [DiscoveredFile]
  /// Every script a case may read (the files found, the apps scenarios name, the modules they
  /// require): no report or log may be written over one of them.
  public let inputs: [String]
}

/// Finds scenario scripts in files and folders, and says what every other `.lua` file is.
public enum ScenarioDiscovery {
  /// The scenarios under `paths` (folders recursively, entries in byte order, hidden folders
  /// skipped, each real folder once however many links lead to it), keeping those whose name
  /// or path contains `filter`. `searchPath`: where `require` looks after a script's folder.
  public static func find(_ paths: [String], filter: String?, searchPath: [String] = []) throws(SuiteError) -> Discovery {
    var walk = FolderWalk()
    for path in paths {
      let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
      let type: mode_t
      switch POSIXFile.fileType(trimmed) {
      case let .success(found): type = found
      case let .failure(error): throw SuiteError("\(path): \(POSIXFile.describe(error.code))")
      }
      if type == S_IFDIR {
        walk.walk(trimmed)
      } else {
        let source = try read(trimmed)
        guard ScriptOutline(source: source).callsScenario else {
          throw SuiteError("\(path): not a scenario (it never calls scenario { … }); name a scenario or a folder")
        }
        walk.add(trimmed, source: source)
      }
    }
    let classified = walk.classified(searchPath: searchPath)
    var scenarios = classified.scenarios
    if let filter, !filter.isEmpty {
      scenarios = scenarios.filter { $0.name.contains(filter) || $0.path.contains(filter) }
    }
    return Discovery(scenarios: scenarios, files: classified.files, inputs: classified.inputs)
  }

  static func read(_ path: String) throws(SuiteError) -> String {
    do { return try readScriptFile(path) } catch { throw SuiteError(error.message) }
  }
}

/// The walk through a suite's folders: each `.lua` file read once and outlined.
struct FolderWalk {
  struct Found {
    let path: String
    let source: String
    let outline: ScriptOutline
  }

  private(set) var found: [Found] = []
  /// Files already classified as they were met (unreadable, badly named, a second path to one file), with their place.
  private(set) var reported: [(index: Int, file: DiscoveredFile)] = []
  /// Where each file came from, by identity: a second path to it is only reported.
  private var files: [FileIdentity: String] = [:]
  /// The real folders searched: a link back to one is not followed again.
  private var folders = Set<FileIdentity>()

  mutating func add(_ path: String, source: String) {
    if let identity = FileIdentity(path: path) {
      if let first = files[identity] {
        if first != path { note(DiscoveredFile(path: path, role: .notACase, why: "the same file as \(first)")) }
        return
      }
      files[identity] = path
    }
    found.append(Found(path: path, source: source, outline: ScriptOutline(source: source)))
  }

  private mutating func note(_ file: DiscoveredFile) {
    reported.append((found.count + reported.count, file))
  }

  mutating func walk(_ dir: String) {
    if let identity = FileIdentity(path: dir), !folders.insert(identity).inserted { return }
    let entries: [[UInt8]]
    switch POSIXFile.directoryEntryBytes(dir) {
    case let .success(found): entries = found
    case let .failure(error):
      note(DiscoveredFile(path: VisibleText.escaped(dir) + "/", role: .notACase,
                          why: "cannot read the folder: \(POSIXFile.describe(error.code))", isProblem: true))
      return
    }
    let names = entries.filter { $0.first != UInt8(ascii: ".") }
    for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      visit(dir, name)
    }
  }

  private mutating func visit(_ dir: String, _ name: [UInt8]) {
    let prefix = dir == "." ? "" : dir + "/"
    guard let text = String(validating: name, as: UTF8.self) else {
      let visible = VisibleText.escaped(prefix) + VisibleText.escaped(bytes: name)
      if case .success(S_IFDIR) = POSIXFile.fileType(bytes: Array(prefix.utf8) + name) {
        note(DiscoveredFile(path: visible + "/", role: .notACase, why: "folder name is not UTF-8; not searched", isProblem: true))
      } else if name.count >= 4, name.suffix(4).elementsEqual(".lua".utf8) {
        note(DiscoveredFile(path: visible, role: .notACase, why: "name is not UTF-8", isProblem: true))
      }
      return
    }
    let path = prefix + text
    guard case let .success(type) = POSIXFile.fileType(path) else {
      if text.hasSuffix(".lua"), POSIXFile.existsWithoutFollowing(path) {
        note(DiscoveredFile(path: VisibleText.escaped(path), role: .notACase, why: "a link that leads nowhere"))
      }
      return
    }
    if type == S_IFDIR {
      walk(path)
    } else if text.hasSuffix(".lua") {
      do throws(SuiteError) { add(path, source: try ScenarioDiscovery.read(path)) } catch {
        note(DiscoveredFile(path: VisibleText.escaped(path), role: .notACase, why: error.message, isProblem: true))
      }
    }
  }
}
