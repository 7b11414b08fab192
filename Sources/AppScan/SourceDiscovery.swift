import EventStore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The files a scan reads, found under the paths it was given, within limits.
package struct SourceFiles: Sendable {
  package var swift: [String] = []
  package var infoPlists: [String] = []
  package var storyboards: [String] = []
  package var projects: [String] = []
  /// Objective-C sources seen (not read): a class the scan looks for may be defined there.
  package var objectiveC = 0
  /// Files found but not read, with why (`too large`, `cannot read: …`).
  package var skipped: [(file: String, reason: String)] = []
}

/// The bounds of a scan: hostile trees are cut short, never followed forever.
package struct ScanLimits: Sendable {
  package var maxFiles = 20_000
  package var maxFileBytes = 4 << 20
  package var maxDepth = 40
  package var maxTotalBytes = 512 << 20
  /// Folder entries looked at, of any kind: a tree of millions of other files is cut short too.
  package var maxEntries = 1_000_000

  package init() {}
}

/// Why a scan could not start or finish: the message names the path.
package struct ScanTrouble: Error, Equatable, CustomStringConvertible {
  package let description: String
  package init(_ description: String) { self.description = description }
}

enum SourceDiscovery {
  /// Folders a scan never enters: build products and vendored dependencies.
  static let skippedFolders: Set<String> = [".build", "build", "Build", "DerivedData", "Pods", "Carthage", ".git", "node_modules", ".swiftpm"]

  /// The Swift files, Info.plists, storyboards and project files under `paths`, each list sorted.
  static func find(_ paths: [String], limits: ScanLimits, exclude: [String] = []) throws(ScanTrouble) -> SourceFiles {
    var found = SourceFiles()
    var count = 0, entries = 0
    for path in paths {
      guard case let .success(kind?) = POSIXFile.kind(path) else { throw ScanTrouble("\(path): no such file or folder") }
      if kind == S_IFDIR {
        let skip = Exclusion(root: path, patterns: exclude)
        try walk(path, depth: 0, limits: limits, skip: skip, count: &count, entries: &entries, into: &found)
      } else if kind != S_IFREG || !classify(path, into: &found, explicit: true) {
        throw ScanTrouble("\(path): not a file a scan reads (a .swift file, an Info.plist or other .plist, a .storyboard, a project.pbxproj, or a folder)")
      }
    }
    // A scan that read no Swift cannot say the app is fine: a wrong folder is trouble, not green.
    if found.swift.isEmpty {
      throw ScanTrouble("\(paths.joined(separator: ", ")): no Swift file found (build folders, Pods and Carthage are skipped); give the app's source folder")
    }
    found.swift.sort(); found.infoPlists.sort(); found.storyboards.sort(); found.projects.sort()
    return found
  }

  private static func walk(_ folder: String, depth: Int, limits: ScanLimits, skip: Exclusion, count: inout Int, entries: inout Int,
                           into found: inout SourceFiles) throws(ScanTrouble) {
    guard depth <= limits.maxDepth else { throw ScanTrouble("\(folder): folders nest deeper than \(limits.maxDepth) levels") }
    guard let listed = POSIXFile.directoryEntries(folder) else {
      found.skipped.append((folder, "cannot read the folder"))
      return
    }
    for name in listed.filter({ $0 != "." && $0 != ".." }).sorted() {
      entries += 1
      if entries > limits.maxEntries { throw ScanTrouble("\(folder): more than \(limits.maxEntries) entries under the scanned folders; scan a smaller folder") }
      let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
      // lstat: a link is never followed (a link to a parent folder would loop).
      guard case let .success(type) = POSIXFile.fileTypeWithoutFollowing(path) else { continue }
      if type == S_IFDIR {
        if skippedFolders.contains(name) || skip.excludes(path) { continue }
        // An .xcodeproj holds project.pbxproj (a generated Info.plist's keys).
        try walk(path, depth: depth + 1, limits: limits, skip: skip, count: &count, entries: &entries, into: &found)
      } else if type == S_IFREG {
        guard !skip.excludes(path), classify(path, into: &found, explicit: false) else { continue }
        count += 1
        if count > limits.maxFiles { throw ScanTrouble("\(folder): more than \(limits.maxFiles) source files; scan a smaller folder") }
      }
    }
  }

  /// Files in the order of their kind; returns whether the file is one a scan reads.
  private static func classify(_ path: String, into found: inout SourceFiles, explicit: Bool) -> Bool {
    let name = PathText.lastComponent(path)
    if name.hasSuffix(".swift") { found.swift.append(path) }
    else if isInfoPlistName(name) || (explicit && name.hasSuffix(".plist")) { found.infoPlists.append(path) }
    else if name.hasSuffix(".storyboard") { found.storyboards.append(path) }
    else if name == "project.pbxproj" { found.projects.append(path) }
    else {
      if name.hasSuffix(".m") || name.hasSuffix(".mm") { found.objectiveC += 1 }
      return false
    }
    return true
  }

  /// `--exclude`: shell globs matched against a path from the folder scanned (`*` also
  /// crosses `/`), each naming files or folders the scan does not enter.
  struct Exclusion {
    let root: String
    let patterns: [String]

    func excludes(_ path: String) -> Bool {
      guard !patterns.isEmpty else { return false }
      let relative = path.hasPrefix(root) ? String(path.dropFirst(root.count).drop { $0 == "/" }) : path
      return patterns.contains { fnmatch(Self.plain($0), relative, 0) == 0 }
    }

    /// `./Gen/*` is `Gen/*`, and `Gen/` is `Gen`: the pattern as paths from the scanned folder are written.
    private static func plain(_ pattern: String) -> String {
      var text = Substring(pattern)
      while text.hasPrefix("./") { text = text.dropFirst(2) }
      while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
      return String(text)
    }
  }

  /// `Info.plist`, and the names Xcode's templates give a target's: `MyApp-Info.plist`, `Info-iOS.plist`.
  static func isInfoPlistName(_ name: String) -> Bool {
    name == "Info.plist" || (name.hasSuffix("-Info.plist") && name.count > 11) || (name.hasPrefix("Info-") && name.hasSuffix(".plist") && name.count > 11)
  }

  /// The bytes of `path` if it is within the limit, else why not.
  static func read(_ path: String, limits: ScanLimits, total: inout Int) -> Result<Data, ScanTrouble> {
    // A file a project names may be a link, a FIFO or a device: only a regular file is read.
    guard case let .success(type) = POSIXFile.fileTypeWithoutFollowing(path) else {
      return .failure(ScanTrouble("cannot read: \(String(cString: strerror(errno)))"))
    }
    guard type == S_IFREG else { return .failure(ScanTrouble("not a regular file (a link, a folder or a device); not read")) }
    let data: Data
    switch POSIXFile.read(path, upTo: limits.maxFileBytes + 1) {
    case let .success(bytes): data = Data(bytes)
    case let .failure(error): return .failure(ScanTrouble("cannot read: \(POSIXFile.describe(error.code))"))
    }
    guard data.count <= limits.maxFileBytes else { return .failure(ScanTrouble("larger than \(limits.maxFileBytes) bytes; not read")) }
    total += data.count
    guard total <= limits.maxTotalBytes else { return .failure(ScanTrouble("the files read pass \(limits.maxTotalBytes) bytes; not read")) }
    return .success(data)
  }
}
