import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built binary with `args` (output to /dev/null, `$TMPDIR` set to `temporaryFolder`) and
/// returns its exit status and peak resident memory in KiB, as the kernel counted it (`wait4`'s `ru_maxrss`).
private func peakMemory(_ args: [String], temporaryFolder: String) throws -> (status: Int32, maxRSSKiB: Int) {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let argv: [UnsafeMutablePointer<CChar>?] = ([lifesimBinary] + args).map { strdup($0) } + [nil]
  let environment: [String] = ["TMPDIR=\(temporaryFolder)", "PATH=/usr/bin:/bin"]
  let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
  defer { for arg in argv + envp { free(arg) } }
  var pid = pid_t()
  let spawned = posix_spawn(&pid, lifesimBinary, &actions, nil, argv, envp)
  guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
  var status: Int32 = 0
  var usage = rusage()
  while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
  return ((status >> 8) & 0xFF, usage.ru_maxrss)
}

@Suite struct SuiteMemoryTests {
  /// A case of a million events that fails at its end: its trace is rendered from its log, so the
  /// suite's memory stays near a run's (it held every event before: 281 MB here, against 32 MB).
  @Test func aMillionEventCaseRendersItsFailureInFlatMemory() throws {
    let dir = try scriptFolder("million", [
      "app.lua": "app { name = \"tiny\" }\ncontroller \"ViewController\" { }\n",
      "big.lua": """
        scenario { name = "big", ios = 17, scenes = true, app = "app.lua" }
        launch()
        for i = 1, 40000 do
          home()
          launch()
        end
        expect_state("background")
        """,
    ])
    let tmp = dir + "/tmp"
    try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    let test = try peakMemory(["test", dir + "/big.lua", "-j", "1", "--json"], temporaryFolder: tmp)
    #expect(test.status == 1)
    #expect(test.maxRSSKiB < 100_000, "peak \(test.maxRSSKiB) KiB")
    // The case's temporary log is gone.
    #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [])
  }
}
