import Foundation
import TestSupport

/// The repository's root (the tests run the binary from there, as a user in a checkout would).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The built `lifesim` binary.
let lifesimBinary = repositoryRoot.appendingPathComponent(".build/debug/lifesim").path

/// Runs the built `lifesim` binary, as a user would. `stdout`: where its standard output goes
/// instead of a pipe read by the test (a file handle such as `/dev/full`, or a closed pipe).
func lifesim(_ args: [String], env: [String: String] = [:], stdout: Any? = nil) throws -> (status: Int32, out: String, err: String) {
  try run(lifesimBinary, args, env: env, stdout: stdout)
}

/// Runs `sh -c command` from the repository's root.
func shell(_ command: String) throws -> (status: Int32, out: String, err: String) {
  try run("/bin/sh", ["-c", command])
}

private func run(_ executable: String, _ args: [String], env: [String: String] = [:], stdout: Any? = nil) throws -> (status: Int32, out: String, err: String) {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: executable)
  p.arguments = args
  p.currentDirectoryURL = repositoryRoot
  var environment = ProcessInfo.processInfo.environment
  for (k, v) in env { environment[k] = v }
  p.environment = environment
  let out = Pipe(), err = Pipe()
  p.standardOutput = stdout ?? out
  p.standardError = err
  try p.run()
  if stdout != nil { try out.fileHandleForWriting.close() }
  let o = out.fileHandleForReading.readDataToEndOfFile()
  let e = err.fileHandleForReading.readDataToEndOfFile()
  p.waitUntilExit()
  return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

func temp(_ name: String) -> String { temporaryPath("lifesim-cli", name) }

func bundledScenarios() throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("Scripts/scenarios").path)
    .filter { $0.hasSuffix(".lua") }.sorted().map { "Scripts/scenarios/\($0)" }
}

/// The names in the folder of `path` (to check that nothing was left behind).
func folderContents(of path: String) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).sorted()
}

/// A recorded run of a bundled scenario, at a fresh path (its expectations may fail).
func recordedRun(_ name: String, scenario: String = "Scripts/scenarios/home_and_return.lua", extra: [String] = []) throws -> String {
  let log = temp(name)
  let r = try lifesim(["run", scenario, "-o", log, "-q"] + extra)
  guard r.status == 0 || r.status == 1 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: r.err]) }
  return log
}
