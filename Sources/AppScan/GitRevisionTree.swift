import EventStore
import FoundationEssentials

/// `git:REV` of `scan --compare`: that revision of the git repository holding a folder, read
/// with `git archive` into a temporary folder. The user's work tree and index are never touched.
package struct GitRevisionTree {
  /// The folder to scan: the revision's copy of the folder the command was run from.
  package let root: String
  /// The temporary folder holding the copy, to remove when done.
  package let temporary: String

  /// Reads `revision` of the repository holding `folder`.
  package static func read(_ revision: String, from folder: String) throws(ScanTrouble) -> GitRevisionTree {
    guard !revision.isEmpty, !revision.hasPrefix("-"), revision.utf8.count <= 256 else {
      throw ScanTrouble("git:\(revision): not a revision name")
    }
    let top = try git(["-C", folder, "rev-parse", "--show-toplevel"], what: "\(folder) is not in a git repository").withoutNewlinesAround
    let prefix = try git(["-C", folder, "rev-parse", "--show-prefix"], what: "cannot read the repository at \(top)").withoutNewlinesAround
    let commit = try git(["-C", top, "rev-parse", "--verify", "--quiet", revision + "^{commit}"],
                         what: "git:\(revision): not a revision of the repository at \(top)").withoutNewlinesAround
    let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    guard case let .success(temporary) = POSIXFile.makeTemporaryDirectory(prefix: base + "/lifesim-compare-") else {
      throw ScanTrouble("\(base): cannot make a temporary folder for git:\(revision)")
    }
    // The copy sits in a folder named as the repository's, so an app without a project (named
    // after its folder) has the same name in both trees.
    let name = PathText.lastComponent(top)
    let copy = temporary + "/" + (name.isEmpty || name == "/" ? "repository" : name)
    do throws(ScanTrouble) {
      try extract(commit, of: top, into: copy)
      // The copy's root is the repository's: findings keep the fingerprints (paths from the
      // repository's root) a scan of the work tree gives, so a baseline matches either.
      guard FileManager.default.createFile(atPath: copy + "/.git", contents: Data()) else { throw ScanTrouble("\(copy): cannot mark the copy's root") }
    } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      throw error
    }
    let root = prefix.isEmpty ? copy : copy + "/" + String(prefix.dropLast(prefix.hasSuffix("/") ? 1 : 0))
    return GitRevisionTree(root: root, temporary: temporary)
  }

  /// Removes the copy.
  package func remove() { try? FileManager.default.removeItem(atPath: temporary) }

  /// The endings of the files a scan reads (and Objective-C, which it counts): only these are
  /// read from git, so a revision's large assets are never unpacked.
  static let readEndings = [".swift", ".plist", ".pbxproj", ".xcconfig", ".storyboard", ".m", ".mm"]

  /// The most bytes read from one revision, as a scan reads at most.
  static let maxTotalBytes = 512 << 20

  /// Writes the revision's files a scan reads into `folder`: their names from `git ls-tree`,
  /// their bytes from one `git cat-file --batch`, without a shell.
  private static func extract(_ commit: String, of top: String, into folder: String) throws(ScanTrouble) {
    let listing = try git(["-C", top, "ls-tree", "-r", "-z", "--full-tree", commit], what: "cannot list \(commit) of \(top)")
    var wanted: [(object: String, path: String)] = []
    for entry in listing.split(separator: "\0") {
      // `<mode> blob <object>\t<path>`: regular files only (no links, no submodules).
      guard let tab = entry.firstIndex(of: "\t") else { continue }
      let fields = entry[..<tab].split(separator: " ")
      let path = String(entry[entry.index(after: tab)...])
      guard fields.count == 3, fields[1] == "blob", fields[0] != "120000", readEndings.contains(where: path.hasSuffix),
            !path.split(separator: "/").contains("..") else { continue }
      wanted.append((String(fields[2]), path))
      guard wanted.count <= ScanLimits().maxFiles else {
        throw ScanTrouble("\(commit) of \(top): more than \(ScanLimits().maxFiles) files a scan reads; compare a folder of it")
      }
    }
    let blobs = try catFile(wanted.map(\.object), in: top)
    for ((_, path), bytes) in zip(wanted, blobs) {
      let file = folder + "/" + path
      try? FileManager.default.createDirectory(atPath: PathText.parent(file), withIntermediateDirectories: true)
      guard FileManager.default.createFile(atPath: file, contents: bytes) else { throw ScanTrouble("\(folder): cannot write \(path)") }
    }
  }

  /// The bytes of each object, in order (`git cat-file --batch`); an object git cannot read is
  /// trouble.
  private static func catFile(_ objects: [String], in top: String) throws(ScanTrouble) -> [Data] {
    let requests = Array(objects.map { $0 + "\n" }.joined().utf8)
    let finished: POSIXProcess.Finished
    switch POSIXProcess.run(["git", "-C", top, "cat-file", "--batch"], input: requests, outputBytesMax: maxTotalBytes) {
    case let .failure(error): throw ScanTrouble("cannot run git: \(POSIXFile.describe(error.code))")
    case let .success(done): finished = done
    }
    guard finished.output.count <= maxTotalBytes else { throw ScanTrouble("\(top): the revision's files hold over \(maxTotalBytes >> 20) MiB") }
    guard finished.status == 0 else { throw ScanTrouble("git cat-file failed in \(top)") }
    let data = Data(finished.output)
    var blobs: [Data] = []
    var index = data.startIndex
    for object in objects {
      // `<object> blob <size>\n<bytes>\n`, or `<object> missing\n`: a file the scan reads that git
      // cannot give is trouble, never an empty file compared as if it were the app's.
      guard let newline = data[index...].firstIndex(of: UInt8(ascii: "\n")) else { throw ScanTrouble("git cat-file ended early in \(top)") }
      let header = String(decoding: data[index..<newline], as: UTF8.self).split(separator: " ")
      index = data.index(after: newline)
      guard header.count == 3, let size = Int(header[2]), size >= 0, size <= data.endIndex - index else {
        throw ScanTrouble("git cannot read object \(object) in \(top) (a shallow or partial clone?)")
      }
      blobs.append(data[index..<(index + size)])
      index = min(data.endIndex, index + size + 1)
    }
    return blobs
  }

  /// What `git ARGUMENTS` prints; `what` is the trouble when it fails.
  private static func git(_ arguments: [String], what: String) throws(ScanTrouble) -> String {
    switch POSIXProcess.run(["git"] + arguments, outputBytesMax: maxTotalBytes) {
    case let .failure(error): throw ScanTrouble("cannot run git: \(POSIXFile.describe(error.code))")
    case let .success(done):
      guard done.output.count <= maxTotalBytes else { throw ScanTrouble("git \(arguments.joined(separator: " ")): printed over \(maxTotalBytes >> 20) MiB") }
      guard done.status == 0 else { throw ScanTrouble(what) }
      return String(decoding: done.output, as: UTF8.self)
    }
  }
}

extension String {
  /// The text without the newlines (and carriage returns) it starts or ends with, as git's
  /// one-line answers are read.
  fileprivate var withoutNewlinesAround: String {
    let isNewline: (Character) -> Bool = { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    return String(drop(while: isNewline).reversed().drop(while: isNewline).reversed())
  }
}
