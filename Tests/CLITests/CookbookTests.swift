import Foundation
import Testing

/// docs/cookbook.md quotes what lifesim prints: the quotes are run here, so the doc's event
/// numbers cannot drift from the binary's again.
@Suite struct CookbookTests {
  static let cookbook = repositoryRoot.path + "/docs/cookbook.md"

  /// The fenced block after the line containing `marker`, as lines.
  private func quotedBlock(after marker: String) throws -> [String] {
    let text = try String(contentsOfFile: Self.cookbook, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let at = lines.firstIndex(where: { $0.contains(marker) }),
          let open = lines[at...].firstIndex(of: "```"), let close = lines[(open + 1)...].firstIndex(of: "```") else { return [] }
    return Array(lines[(open + 1)..<close])
  }

  @Test func theDiffOfASlowDidEnterBackgroundIsQuotedAsPrinted() throws {
    let ok = temp("cookbook-ok.lifelog"), slow = temp("cookbook-slow.lifelog")
    _ = try lifesim(["run", "Scripts/scenarios/home_and_return.lua", "-o", ok, "-q", "--force"])
    _ = try lifesim(["run", "Scripts/scenarios/home_and_return.lua", "--app", "Scripts/apps/overrun.lua", "-o", slow, "-q", "--force"])
    let diff = try lifesim(["diff", ok, slow])
    let quoted = try quotedBlock(after: "The diff names the changed app first")
    #expect(quoted.count == 3 && quoted[0].hasPrefix("First divergence: event "), "\(quoted)")
    #expect(diff.out.contains(quoted.joined(separator: "\n") + "\n"), "\(diff.out)")
    // `replay --app` reports the same place without a second log.
    let event = quoted.first?.split(separator: " ").dropFirst(3).first ?? ""
    let replay = try lifesim(["replay", ok, "--app", "Scripts/apps/overrun.lua"])
    #expect(replay.out.hasPrefix("Departs at event \(event) (t = 0.500000 s):\n"), "\(replay.out)")
  }

  @Test func theDiffOfTheTwoComposersIsQuotedAsPrinted() throws {
    let perProcess = temp("cookbook-per-process.lifelog"), perScene = temp("cookbook-per-scene.lifelog")
    _ = try lifesim(["run", "Scripts/scenarios/ipad_draft_per_process.lua", "-o", perProcess, "-q", "--force"])
    _ = try lifesim(["run", "Scripts/scenarios/ipad_draft_per_scene.lua", "-o", perScene, "-q", "--force"])
    let diff = try lifesim(["diff", perProcess, perScene, "--context", "1"], env: ["NO_COLOR": "1"])
    let quoted = try quotedBlock(after: "per_process.lifelog per_scene.lifelog --context 1")
    #expect(quoted.count == 5 && quoted[0].hasSuffix("@@ Scene#1"), "\(quoted)")
    #expect(diff.out.contains(quoted.joined(separator: "\n") + "\n"), "\(diff.out)")
  }
}
