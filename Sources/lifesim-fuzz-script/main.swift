// libFuzzer entry point for script loading and running: every input is an app script,
// run by a fixed scenario. Any outcome but a host crash or hang is fine. Build and run:
//   swift build -c release --product lifesim-fuzz-script --sanitize=fuzzer --scratch-path .build-fuzz
//   SWIFT_BACKTRACE=enable=no .build-fuzz/release/lifesim-fuzz-script -max_total_time=60
import ScriptHost

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScript(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let dir = "/tmp/lifesim-fuzz-script-\(getpid())"
  mkdir(dir, 0o755)
  let app = dir + "/app.lua", scenario = dir + "/s.lua"
  for (path, bytes) in [(app, Array(UnsafeBufferPointer(start: data, count: size))),
                        (scenario, Array("launch()\nlock()\nadvance(40)\nunlock()\nmemory_warning()\n".utf8))] {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { return 0 }
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
  }
  _ = ScenarioRunner(RunConfiguration(scenarioPath: scenario, appPath: app)) { _, _ in }.run()
  return 0
}
