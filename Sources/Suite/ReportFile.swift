import EventStore

/// Writes a report file whole, through `OutputTarget`: into a temporary file beside it, renamed
/// into place when complete, so a reader never sees half a report.
public enum ReportFile {
  public static func write(_ text: String, to path: String) throws(SuiteError) {
    do {
      try OutputTarget.writeWhole(path) { POSIXFile.writeAll($0, text: text) }
    } catch {
      throw SuiteError(String(describing: error))
    }
  }

  /// The first `.lifelog` (in byte order) directly in the folder `dir`; nil when it holds none or does not exist.
  public static func firstLog(in dir: String) -> String? {
    let logs = (POSIXFile.directoryEntries(dir) ?? []).filter { $0.hasSuffix(".lifelog") && !$0.hasPrefix(".") }
    return logs.min { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// Creates `path` and its missing parents as folders.
  public static func makeDirectory(_ path: String) throws(SuiteError) {
    if let (folder, error) = POSIXFile.makeDirectories(path) {
      throw SuiteError("\(folder): cannot create the folder: \(POSIXFile.describe(error.code))")
    }
    guard POSIXFile.isDirectory(path) else { throw SuiteError("\(path): not a folder") }
  }
}
