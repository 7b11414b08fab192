import Foundation

/// One recorded run of each bundled scenario, made once per test process (exports read them).
let bundledRuns: [String] = {
  (try? bundledScenarios().compactMap { scenario -> String? in
    let name = "bundled-" + URL(fileURLWithPath: scenario).deletingPathExtension().lastPathComponent + ".lifelog"
    try? FileManager.default.removeItem(atPath: temp(name))
    return try? recordedRun(name, scenario: scenario)
  }) ?? []
}()

/// Runs `Tests/CLITests/scripts/NAME` with the first `python3` on the PATH.
func pythonScript(_ name: String, _ args: [String]) throws -> (status: Int32, out: String, err: String) {
  try shell("PYTHONDONTWRITEBYTECODE=1 " + ShellCommand.line(["python3", "Tests/CLITests/scripts/" + name] + args))
}

/// Whether `python3` imports `module` (and `executable` exists, if given). `make test` installs
/// them first and says so (its `test-tools` target); the tests install nothing themselves.
func pythonModuleReady(_ module: String, executable: String? = nil) -> Bool {
  if let executable, !FileManager.default.isExecutableFile(atPath: executable) { return false }
  return (try? shell("python3 -c 'import \(module)'"))?.status == 0
}

/// The words of a shell command line, quoted (for `shell`).
enum ShellCommand {
  static func line(_ words: [String]) -> String {
    words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
  }
}
