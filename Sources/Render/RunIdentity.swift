import EventStore
import JSON

/// What names a recorded run in an export: its scenario, app and a stable id derived from the
/// header (profile, scenes, seed and every script's digest), so two runs told apart by any of
/// these get different ids and the same run always gets the same one.
package struct RunIdentity {
  /// The scenario script's file name without `.lua` (`cold_launch`), or "run" if the header names none.
  package let scenario: String
  /// The scenario script's path as recorded.
  package let scenarioPath: String
  /// The app script's path as recorded ("" when the scenario embeds its app).
  package let appPath: String
  /// 16 hex digits (FNV-1a, 64 bits, of the header's identifying parts).
  package let id: String
  /// A process id for trace viewers: 1 to 2,000,000,000, derived from `id`.
  package let pid: Int64

  package init(header: LogHeader) {
    scenarioPath = header.scripts.first { $0.role == "scenario" }?.path ?? ""
    appPath = header.scripts.first { $0.role == "app" }?.path ?? ""
    let file = scenarioPath.split(separator: "/").last.map(String.init) ?? ""
    scenario = file.isEmpty ? "run" : (file.hasSuffix(".lua") ? String(file.dropLast(4)) : file)
    let parts = [header.profile.canonicalText, String(header.scenes), String(header.seed)] + header.scripts.map { $0.role + ":" + $0.sha256 }
    let hash = FNV1a.hash(parts.joined(separator: "\n").utf8)
    let hex = String(hash, radix: 16)
    id = String(repeating: "0", count: 16 - hex.count) + hex
    pid = Int64(hash % 2_000_000_000) + 1
  }

  /// The command that replays the run from its log (byte for byte: the log embeds every script).
  package func replayCommand(log: String) -> String { ShellCommand.line(["lifesim", "replay", log]) }
}
