// libFuzzer entry point for script loading and running: every input is an app script,
// run by a fixed scenario. Any outcome but a host crash or hang is fine. Build and run:
//   swift build -c release --product lifesim-fuzz-script --sanitize=fuzzer --scratch-path .build-fuzz
//   SWIFT_BACKTRACE=enable=no .build-fuzz/release/lifesim-fuzz-script -max_total_time=60
import EventStore
import ScriptHost

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScript(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let dir = "/tmp/lifesim-fuzz-script-\(getpid())"
  POSIXFile.makeDirectory(dir)
  let app = dir + "/app.lua", scenario = dir + "/s.lua"
  for (path, bytes) in [(app, Array(UnsafeBufferPointer(start: data, count: size))),
                        (scenario, Array("launch()\nlock()\nadvance(40)\nunlock()\nmemory_warning()\n".utf8))] {
    guard case let .success(fd) = POSIXFile.openForWriting(path, exclusive: false) else { return 0 }
    _ = POSIXFile.truncate(fd)
    _ = bytes.withUnsafeBytes { POSIXFile.writeAll(fd, $0) }
    POSIXFile.close(fd)
  }
  _ = ScenarioRunner(RunConfiguration(scenarioPath: scenario, appPath: app)) { _, _ in }.run()
  return 0
}
