import Foundation
import TestSupport

/// The repository's root folder (the bundled scripts are found from it).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The built `lifesim` binary.
let lifesimBinary = repositoryRoot.appendingPathComponent(".build/debug/lifesim").path

/// Runs the built `lifesim` binary, as a user would: from the repository's root, or from `cwd`.
/// `stdout`: where its standard output goes instead of a pipe the test reads (a file handle such
/// as `/dev/full`, or a pipe whose reader is closed).
func lifesim(_ args: [String], env: [String: String] = [:], cwd: String? = nil, stdout: Any? = nil) throws -> (status: Int32, out: String, err: String) {
  try runProcess(lifesimBinary, args, cwd: cwd ?? repositoryRoot.path, env: env, stdout: stdout)
}

/// Runs `sh -c command` from the repository's root.
func shell(_ command: String) throws -> (status: Int32, out: String, err: String) {
  try runProcess("/bin/sh", ["-c", command], cwd: repositoryRoot.path)
}

func temp(_ name: String) -> String { temporaryPath("lifesim-cli", name) }

func bundledScenarios() throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("Scripts/scenarios").path)
    .filter { $0.hasSuffix(".lua") }.sorted().map { "Scripts/scenarios/\($0)" }
}

/// A recorded run of a bundled scenario, at a fresh path (its expectations may fail).
func recordedRun(_ name: String, scenario: String = "Scripts/scenarios/home_and_return.lua", extra: [String] = []) throws -> String {
  let log = temp(name)
  let r = try lifesim(["run", scenario, "-o", log, "-q"] + extra)
  guard r.status == 0 || r.status == 1 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: r.err]) }
  return log
}

/// Writes `files` (name → text) into a new temporary folder and returns its path.
func scriptFolder(_ name: String, _ files: [String: String]) throws -> String {
  let dir = temp(name)
  try? FileManager.default.removeItem(atPath: dir)
  try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
  for (file, text) in files {
    let path = dir + "/" + file
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }
  return dir
}
