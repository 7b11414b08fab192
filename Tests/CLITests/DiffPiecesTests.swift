import Foundation
import Testing
import TestSupport

/// Issue 34: run B is run A one second later, so the hunk never closes; `diff` hands it out in
/// pieces that stay aligned, and in `--json` each piece but the last says `"continued":true`.
@Suite struct DiffPiecesTests {
  private static let app = """
    app { name = "A", root = "Main" }
    controller "Main" { }
    function AppDelegate.didFinishLaunchingWithOptions(application, options)
      for i = 1, 9000 do store("k", i) end
      return true
    end
    """

  private func logs(_ folder: String) throws -> String {
    let dir = try scriptFolder(folder, [
      "a.lua": Self.app,
      "s.lua": "scenario { app = \"a.lua\" }\nlaunch()\nexpect_state(\"active\")\n",
      "later.lua": "scenario { app = \"a.lua\" }\nadvance(1)\nlaunch()\nexpect_state(\"active\")\n",
    ])
    _ = try lifesim(["run", "s.lua", "-o", "a.lifelog", "-q"], cwd: dir)
    _ = try lifesim(["run", "later.lua", "-o", "b.lifelog", "-q"], cwd: dir)
    return dir
  }

  /// `(aStart, aCount, bStart, bCount)` of `@@ -s,c +s,c @@`.
  private func numbers(_ header: Substring) -> [Int] {
    header.split(whereSeparator: { " -+,@".contains($0) }).compactMap { Int($0) }
  }

  @Test func aHunkThatNeverClosesIsPrintedInAlignedPieces() throws {
    let dir = try logs("pieces-text")
    let r = try lifesim(["diff", "a.lifelog", "b.lifelog"], env: ["NO_COLOR": "1"], cwd: dir)
    #expect(r.status == 1)
    let headers: [[Int]] = r.out.split(separator: "\n").filter { $0.hasPrefix("@@ ") }.map(numbers)
    #expect(headers.count == 3, "\(headers)")
    for (piece, next) in zip(headers, headers.dropFirst()) {
      let starts: [Int] = [next[0], next[2]], ends: [Int] = [piece[0] + piece[1], piece[2] + piece[3]]
      #expect(starts == ends, "\(headers)")
    }
    // The time shift is counted over the whole hunk, not its largest piece.
    #expect(r.out.contains("Note: from event 1 of A, 9029 of the 9031 events that differ appear in B at other times"), "\(r.out.suffix(400))")
  }

  @Test func inJSONEachPieceButTheLastIsContinued() throws {
    let dir = try logs("pieces-json")
    let r = try lifesim(["diff", "a.lifelog", "b.lifelog", "--json"], cwd: dir)
    #expect(r.status == 1)
    let hunks = try r.out.split(separator: "\n").compactMap { line -> [String: Any]? in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return object?["kind"] as? String == "hunk" ? object : nil
    }
    #expect(hunks.map { $0["continued"] as? Bool } == [true, true, nil])
    for (piece, next) in zip(hunks, hunks.dropFirst()) {
      let (a, b) = (piece["a"] as? [String: Int] ?? [:], piece["b"] as? [String: Int] ?? [:])
      #expect((next["a"] as? [String: Int])?["start"] == (a["start"] ?? 0) + (a["count"] ?? 0))
      #expect((next["b"] as? [String: Int])?["start"] == (b["start"] ?? 0) + (b["count"] ?? 0))
    }
  }
}
