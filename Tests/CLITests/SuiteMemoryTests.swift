import Foundation
import Testing
import TestSupport

/// Runs the built binary with `args` (output to /dev/null, `$TMPDIR` set to `temporaryFolder`) and
/// returns its exit status and peak resident memory in KiB, as the kernel counted it (`ru_maxrss`).
/// A small Python process starts it: a child this test process started itself would be charged
/// this process's own peak (the kernel counts the memory it shared until it ran the binary).
private func peakMemory(_ args: [String], temporaryFolder: String) throws -> (status: Int32, maxRSSKiB: Int) {
  let program = """
    import resource, subprocess, sys
    done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    """
  let r = try runProcess("/usr/bin/env", ["python3", "-c", program, lifesimBinary] + args, env: ["TMPDIR": temporaryFolder])
  let words = r.out.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
  guard words.count == 2 else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: r.out + r.err]) }
  return (Int32(words[0]), words[1])
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
