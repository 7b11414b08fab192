import AppScan

#if canImport(Glibc)
import Glibc
#endif

/// `lifesim scan --emit-app DIR`: the Lua app that mirrors the scanned Swift and its scenarios.
/// Existing files are never overwritten without `--force` (then nothing is written at all).
enum ScanEmit {
  /// Writes the files; returns their paths, or the message of what went wrong.
  static func write(_ report: ScanReport, into directory: String, appName: String, root: String,
                    force: Bool) -> Result<[String], ScanTrouble> {
    let writer = LuaAppWriter(report: report, name: appName, root: root)
    let files = [("app.lua", writer.app)] + writer.scenarios
    if mkdir(directory, 0o755) != 0, errno != EEXIST {
      return .failure(ScanTrouble("\(directory): cannot create the folder: \(String(cString: strerror(errno)))"))
    }
    let paths = files.map { (directory + "/" + $0.0, $0.1) }
    var info = stat()
    // lstat: a link that leads nowhere is there too.
    for (path, _) in paths where !force && lstat(path, &info) == 0 {
      return .failure(ScanTrouble("\(path): already exists; --emit-app writes nothing over existing files without --force"))
    }
    for (path, text) in paths {
      let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (force ? O_TRUNC : O_EXCL), 0o644)
      guard fd >= 0 else { return .failure(ScanTrouble("\(path): \(String(cString: strerror(errno)))")) }
      let bytes = Array(text.utf8)
      let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      close(fd)
      guard written == bytes.count else { return .failure(ScanTrouble("\(path): cannot write all of it")) }
    }
    return .success(paths.map(\.0))
  }
}
