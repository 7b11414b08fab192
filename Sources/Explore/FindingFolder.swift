import EventStore
import ScriptHost
#if canImport(Glibc)
import Glibc
#endif

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
    let findings: [String] = (0..<count).flatMap { (i: Int) -> [String] in [dir + "/" + scenario(i + 1), dir + "/" + log(i + 1)] }
    return [dir + "/report.json"] + findings
  }

  static func scenario(_ number: Int) -> String { "finding-\(number).lua" }
  static func log(_ number: Int) -> String { "finding-\(number).lifelog" }

  static func create(_ dir: String) throws(ScriptError) {
    if let (_, error) = POSIXFile.makeDirectories(dir) {
      throw ScriptError("-o \(dir): cannot create the folder (\(POSIXFile.describe(error.code)))")
    }
    guard POSIXFile.isDirectory(dir) else { throw ScriptError("-o \(dir): cannot create the folder (\(POSIXFile.describe(EEXIST)))") }
  }

  /// Writes `text` whole (a temporary file renamed into place).
  static func save(_ text: String, to path: String) throws(ScriptError) {
    try writeWhole(path) { POSIXFile.writeAll($0, text: text) }
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
    let source: Int32
    switch POSIXFile.openForReading(from) {
    case let .success(opened): source = opened
    case let .failure(error): throw ScriptError("\(from): cannot copy (\(POSIXFile.describe(error.code)))")
    }
    defer { POSIXFile.close(source) }
    try writeWhole(to) { fd in POSIXFile.copy(from: source, to: fd) }
  }

  /// `OutputTarget.writeWhole`, its refusal as explore's error.
  private static func writeWhole(_ path: String, _ write: (Int32) -> Int32?) throws(ScriptError) {
    do { try OutputTarget.writeWhole(path, write) } catch { throw ScriptError(String(describing: error)) }
  }
}
