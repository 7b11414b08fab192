import Foundation
import TestSupport

/// The repository's root folder (the bundled scripts are found from it).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Runs the built `lifesim` binary, as a user would: from the repository's root, or from `cwd`.
func lifesim(_ args: [String], env: [String: String] = [:], cwd: String? = nil) throws -> (status: Int32, out: String, err: String) {
  try runProcess(repositoryRoot.appendingPathComponent(".build/debug/lifesim").path, args, cwd: cwd ?? repositoryRoot.path, env: env)
}

func temp(_ name: String) -> String { temporaryPath("lifesim-cli", name) }

func bundledScenarios() throws -> [String] {
  let root = repositoryRoot
  return try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Scripts/scenarios").path)
    .filter { $0.hasSuffix(".lua") }.sorted().map { "Scripts/scenarios/\($0)" }
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
