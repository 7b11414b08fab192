import Foundation
import Testing
import TestSupport

/// Events that only moved (the same call at the same time, in another order) differ in nothing a
/// note shows: `diff` printed `  []` after each, and called them a time shift.
@Suite struct DiffMovedLinesTests {
  private static let app = """
    app { name = "A", root = "Main" }
    controller "Main" { }
    function AppDelegate.didFinishLaunchingWithOptions(application, options)
      STORES
      return true
    end
    """

  @Test func movedLinesHaveNoEmptyNoteAndNoTimeShift() throws {
    let dir = try scriptFolder("moved", [
      "a.lua": Self.app.replacingOccurrences(of: "STORES", with: #"store("x", 1); store("y", 2); store("z", 3)"#),
      "b.lua": Self.app.replacingOccurrences(of: "STORES", with: #"store("y", 2); store("z", 3); store("x", 1)"#),
      "s.lua": "scenario { app = \"a.lua\" }\nlaunch()\n",
    ])
    _ = try lifesim(["run", "s.lua", "-o", "a.lifelog", "-q"], cwd: dir)
    _ = try lifesim(["run", "s.lua", "--app", "b.lua", "-o", "b.lifelog", "-q"], cwd: dir)
    let r = try lifesim(["diff", "a.lifelog", "b.lifelog"], env: ["NO_COLOR": "1"], cwd: dir)
    #expect(r.status == 1)
    let hunk = ["-     0.000000       · store x = 1", "-     0.000000       · store y = 2", "-     0.000000       · store z = 3",
                "+     0.000000       · store y = 2", "+     0.000000       · store z = 3", "+     0.000000       · store x = 1"]
    #expect(r.out.contains(hunk.joined(separator: "\n") + "\n"), "\(r.out)")
    #expect(!r.out.contains("[]") && !r.out.contains("time shift"), "\(r.out)")
    #expect(r.out.contains("\n  A: 0.000000       · store x = 1  (a.lua:4)\n  B: 0.000000       · store y = 2  (b.lua:4)\n"), "\(r.out)")
  }
}
