#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file a case's log is written to in the logs folder until the case ends: a name no other
/// case or process can have (`.lifesim-PID-RANDOM.partial.lifelog`, created with `O_EXCL`), so
/// processes sharing a folder never write to, nor rename, each other's logs.
enum PartialLog {
  /// Creates an empty partial log in `dir` and returns its path.
  static func create(in dir: String) -> Result<String, SuiteError> {
    while true {
      let path = "\(dir)/.lifesim-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).partial.lifelog"
      let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      if fd >= 0 {
        close(fd)
        return .success(path)
      }
      if errno != EEXIST { return .failure(SuiteError("\(dir): cannot write a log: \(String(cString: strerror(errno)))")) }
    }
  }
}
