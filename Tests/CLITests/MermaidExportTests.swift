import Foundation
import Testing

/// `export --format mermaid`: a user action's name and an expectation's message are in the
/// diagram, with Mermaid's markup characters written as its entity codes.
@Suite struct MermaidExportTests {
  @Test func actionNamesAndExpectationMessagesAreShownEscaped() throws {
    let dir = try scriptFolder("mermaid-act", [
      "app.lua": try String(contentsOfFile: repositoryRoot.appendingPathComponent("Tests/ExploreTests/ExploreApps/editor.lua").path, encoding: .utf8),
      "s.lua": "scenario { app = \"app.lua\" }\nlaunch()\nact(\"type\", \"a;b#c%d<e>&f\")\nexpect(false, \"lost 100% <b>draft</b>; #1\")\n",
    ])
    #expect(try lifesim(["run", "s.lua", "-o", "s.lifelog", "-q"], cwd: dir).status == 1)
    let r = try lifesim(["export", "s.lifelog", "--format", "mermaid"], cwd: dir)
    #expect(r.status == 0 && r.err.isEmpty, "\(r.err)")
    let lines = r.out.split(separator: "\n").map(String.init)
    let act = try #require(lines.firstIndex { $0.hasPrefix("  User->>UIKit: act") })
    #expect(Array(lines[act...act + 1]) == [
      "  User->>UIKit: act type \"a#59;b#35;c#37;d#60;e#62;#38;f\" @0.000000s",
      "  UIKit->>Editor_1: action(_:) type",
    ], "\(r.out)")
    #expect(lines.contains("  Note over User: FAILED expect: lost 100#37; #60;b#62;draft#60;/b#62;#59; #35;1"), "\(r.out)")
  }
}
