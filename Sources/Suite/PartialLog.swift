#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import EventStore

/// The file a case's log is written to in the logs folder until the case ends: a name no other
/// case or process can have (`.lifesim-PID-RANDOM.partial.lifelog`, created with `O_EXCL`), so
/// processes sharing a folder never write to, nor rename, each other's logs.
enum PartialLog {
  /// Creates an empty partial log in `dir` and returns its path.
  static func create(in dir: String) -> Result<String, SuiteError> {
    while true {
      let path = "\(dir)/.lifesim-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).partial.lifelog"
      switch POSIXFile.openForWriting(path, exclusive: true) {
      case let .success(fd):
        POSIXFile.close(fd)
        return .success(path)
      case let .failure(error) where !POSIXFile.alreadyExists(error):
        return .failure(SuiteError("\(dir): cannot write a log: \(POSIXFile.describe(error.code))"))
      case .failure: continue
      }
    }
  }
}
