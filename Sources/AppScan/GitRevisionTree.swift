import EventStore
import Foundation

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
    let top = try git(["-C", folder, "rev-parse", "--show-toplevel"], what: "\(folder) is not in a git repository").trimmingCharacters(in: .newlines)
    let prefix = try git(["-C", folder, "rev-parse", "--show-prefix"], what: "cannot read the repository at \(top)").trimmingCharacters(in: .newlines)
    let commit = try git(["-C", top, "rev-parse", "--verify", "--quiet", revision + "^{commit}"],
                         what: "git:\(revision): not a revision of the repository at \(top)").trimmingCharacters(in: .newlines)
    let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    guard case let .success(temporary) = POSIXFile.makeTemporaryDirectory(prefix: base + "/lifesim-compare-") else {
      throw ScanTrouble("\(base): cannot make a temporary folder for git:\(revision)")
    }
    do {
      try extract(commit, of: top, into: temporary)
    } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      throw error
    }
    let root = prefix.isEmpty ? temporary : temporary + "/" + String(prefix.dropLast(prefix.hasSuffix("/") ? 1 : 0))
    return GitRevisionTree(root: root, temporary: temporary)
  }

  /// Removes the copy.
  package func remove() { try? FileManager.default.removeItem(atPath: temporary) }

  /// `git archive COMMIT | tar -x -C folder`, without a shell.
  private static func extract(_ commit: String, of top: String, into folder: String) throws(ScanTrouble) {
    let archive = Process()
    archive.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    archive.arguments = ["git", "-C", top, "archive", "--format=tar", commit]
    let untar = Process()
    untar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    untar.arguments = ["tar", "-x", "-C", folder]
    let pipe = Pipe()
    archive.standardOutput = pipe
    untar.standardInput = pipe
    archive.standardError = FileHandle.nullDevice
    untar.standardError = FileHandle.nullDevice
    do {
      try untar.run()
      try archive.run()
      // Only the two children hold the pipe now: tar sees its end when git's output ends.
      try? pipe.fileHandleForWriting.close()
      try? pipe.fileHandleForReading.close()
    } catch {
      throw ScanTrouble("cannot run git or tar: \(error.localizedDescription)")
    }
    archive.waitUntilExit()
    untar.waitUntilExit()
    guard archive.terminationStatus == 0, untar.terminationStatus == 0 else { throw ScanTrouble("git archive \(commit) of \(top) failed") }
  }

  /// What `git ARGUMENTS` prints; `what` is the trouble when it fails.
  private static func git(_ arguments: [String], what: String) throws(ScanTrouble) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { throw ScanTrouble("cannot run git: \(error.localizedDescription)") }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw ScanTrouble(what) }
    return String(decoding: data, as: UTF8.self)
  }
}
