#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a report file whole: into a temporary file beside it, renamed into place when complete,
/// so a reader never sees half a report.
public enum ReportFile {
  public static func write(_ text: String, to path: String) throws(SuiteError) {
    let temporary = "\(path).\(getpid()).partial"
    guard let file = fopen(temporary, "w") else {
      throw SuiteError("\(path): cannot write: \(String(cString: strerror(errno)))")
    }
    var text = text
    let written = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) == $0.count }
    guard fclose(file) == 0, written, rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw SuiteError("\(path): cannot write: \(reason)")
    }
  }

  /// The first `.lifelog` (in byte order) directly in the folder `dir`; nil when it holds none or does not exist.
  public static func firstLog(in dir: String) -> String? {
    guard let handle = opendir(dir) else { return nil }
    defer { closedir(handle) }
    var logs: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if name.hasSuffix(".lifelog"), !name.hasPrefix(".") { logs.append(name) }
    }
    return logs.min { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// Creates `path` and its missing parents as folders.
  public static func makeDirectory(_ path: String) throws(SuiteError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for part in path.split(separator: "/") {
      prefix += part
      if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
        throw SuiteError("\(prefix): cannot create the folder: \(String(cString: strerror(errno)))")
      }
      prefix += "/"
    }
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { throw SuiteError("\(path): not a folder") }
  }
}
