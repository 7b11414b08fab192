import EventStore
import Foundation
import ScriptHost

/// The folder `explore -o` and `explore merge -o` write: every file they will write is checked
/// before the first is written. A file that is one of the command's inputs (the app, a module
/// it requires, the spec, a merged report, finding or log; compared by `FileIdentity`) is never
/// written over, even with `--force`; any other existing file only with `--force`.
enum FindingFolder {
  /// Refuses the first of `targets` that is an input, or that exists without `overwrite`.
  static func check(_ targets: [String], inputs: [String], overwrite: Bool) throws(ScriptError) {
    for target in targets where FileIdentity(path: target) != nil {
      if let refusal = FileIdentity.refusal(writing: target, over: inputs) { throw ScriptError(refusal) }
      if !overwrite { throw ScriptError("\(target): already exists; use --force to overwrite the folder's findings") }
    }
  }

  /// The names a folder of `count` findings holds: the report, then each finding's scenario and log.
  static func files(_ dir: String, findings count: Int) -> [String] {
    [dir + "/report.json"] + (0..<count).flatMap { [dir + "/" + scenario($0 + 1), dir + "/" + log($0 + 1)] }
  }

  static func scenario(_ number: Int) -> String { "finding-\(number).lua" }
  static func log(_ number: Int) -> String { "finding-\(number).lifelog" }

  static func create(_ dir: String) throws(ScriptError) {
    do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
      throw ScriptError("-o \(dir): cannot create the folder (\(error.localizedDescription))")
    }
  }

  /// Writes `text` whole (a temporary file renamed into place).
  static func save(_ text: String, to path: String) throws(ScriptError) {
    do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
      throw ScriptError("\(path): cannot write (\(error.localizedDescription))")
    }
  }

  /// Refuses what explore never writes into a folder: anything but a plain file (a link could
  /// lead a merge to copy a file from anywhere, a folder a whole tree).
  static func requirePlainFile(_ path: String) throws(ScriptError) {
    let type: mode_t
    switch POSIXFile.fileTypeWithoutFollowing(path) {
    case let .success(found): type = found
    case let .failure(error): throw ScriptError("\(path): cannot read (\(POSIXFile.describe(error.code)))")
    }
    guard type == S_IFREG else {
      throw ScriptError("\(path): not a plain file; explore writes each finding as one, and merge copies nothing else")
    }
  }

  /// Copies the file `from` to `to` whole: into a temporary file beside `to`, renamed into place.
  static func copy(_ from: String, to: String) throws(ScriptError) {
    let temporary = (to as NSString).deletingLastPathComponent + "/." + (to as NSString).lastPathComponent
      + ".\(ProcessInfo.processInfo.processIdentifier).tmp"
    try? FileManager.default.removeItem(atPath: temporary)
    do { try FileManager.default.copyItem(atPath: from, toPath: temporary) } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      throw ScriptError("\(from): cannot copy (\(error.localizedDescription))")
    }
    if let error = POSIXFile.rename(temporary, to: to) {
      try? FileManager.default.removeItem(atPath: temporary)
      throw ScriptError("\(to): cannot write (\(POSIXFile.describe(error.code)))")
    }
  }
}
