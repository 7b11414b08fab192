// libFuzzer entry point for the log reader. Build and run (docs/testing.md):
//   swift build -c release --product lifesim-fuzz-reader --sanitize=fuzzer
//   SWIFT_BACKTRACE=enable=no .build/release/lifesim-fuzz-reader -max_total_time=60 fuzz-corpus/
// Every input is written to a file and read to its end: any outcome but a crash or a hang is fine.
import EventStore

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLogReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let path = "/tmp/lifesim-fuzz-\(getpid()).lifelog"
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  guard fd >= 0 else { return 0 }
  _ = write(fd, data, size)
  close(fd)
  _ = LogVerification.check(path: path)
  if let reader = try? LogReader(path: path) { while (try? reader.next()) ?? nil != nil {} }
  return 0
}
