#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import EventStore

/// The file a case's log is written to until the case ends: in the logs folder, a name no other
/// case or process can have (`.lifesim-PID-RANDOM.partial.lifelog`, created with `O_EXCL`), so
/// processes sharing a folder never write to, nor rename, each other's logs; without a logs
/// folder, the same name in the temporary folder, removed when the case ends (a failure's trace
/// is rendered from it, so no case holds its events in memory).
struct PartialLog {
  let path: String
  /// In the temporary folder: removed however the case ends.
  let isTemporary: Bool

  /// `$TMPDIR`, else `/tmp`.
  static var temporaryDirectory: String { getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp" }

  /// Creates an empty partial log in `logsDirectory`, or in `temporaryDirectory` when it is nil.
  static func create(in logsDirectory: String?, temporaryDirectory: String) -> Result<PartialLog, SuiteError> {
    let dir = logsDirectory ?? temporaryDirectory
    while true {
      let path = "\(dir)/.lifesim-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).partial.lifelog"
      switch POSIXFile.openForWriting(path, exclusive: true) {
      case let .success(fd):
        POSIXFile.close(fd)
        return .success(PartialLog(path: path, isTemporary: logsDirectory == nil))
      case let .failure(error) where !POSIXFile.alreadyExists(error):
        return .failure(SuiteError("\(dir): cannot write a log: \(POSIXFile.describe(error.code))"))
      case .failure: continue
      }
    }
  }

  func discard() { _ = POSIXFile.remove(path) }
}
