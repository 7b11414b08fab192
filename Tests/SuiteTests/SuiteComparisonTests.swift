import Foundation
import Suite
import Testing

/// `lifesim test --compare`'s library in this process: pairing the runs, what a pair that
/// differs reports (text and JSON), and nothing for a pair that agrees.
@Suite struct SuiteComparisonTests {
  static let bundled = repositoryRoot + "/Scripts/scenarios/memory_warning.lua"

  /// The runs of the bundled scenario on `profiles`, their logs kept in a new folder.
  private func comparedRuns(_ axis: ComparisonAxis, profiles: [Int], scenesBoth: Bool) throws -> (SuiteComparison, [CaseResult]) {
    let logs = try emptyFolder("compare")
    let comparison = try SuiteComparison(axis: axis, logs: logs, keepPassing: true)
    return (comparison, try runSuite([Self.bundled], profiles: profiles, scenesBoth: scenesBoth, logs: logs, keepAll: true))
  }

  @Test func aPairThatDiffersGivesItsChangeAsTextAndJSON() throws {
    let (comparison, results) = try comparedRuns(.scenes, profiles: [17], scenesBoth: true)
    let pairs = comparison.pairs(results)
    #expect(pairs.map { [$0.from.name, $0.to.name] } == [["memory warning [iOS 17, no scenes]", "memory warning [iOS 17]"]])
    let change = try #require(try comparison.compare(pairs[0].from, pairs[0].to))
    #expect(change.text == """
      memory warning: iOS 17: no scenes → scenes
        appeared: configurationForConnecting ×1, willConnectTo ×1, sceneWillEnterForeground ×1, sceneDidBecomeActive ×1
        disappeared: applicationDidBecomeActive ×1
        first divergence: - process started (foreground; applicationState inactive) + process started (foreground; applicationState background) (after launch)
      """)
    let expected: [String] = [
      #"{"kind":"comparison","axis":"scenes","scenario":"memory warning","file":"\#(Self.bundled)","#,
      #""from":{"ios":17,"scenes":false},"to":{"ios":17,"scenes":true},"status":{"from":"passed","to":"passed"},"outcome":{},"#,
      #""appeared":{"configurationForConnecting":1,"willConnectTo":1,"sceneWillEnterForeground":1,"sceneDidBecomeActive":1},"#,
      #""disappeared":{"applicationDidBecomeActive":1},"diagnostics":[],"#,
      #""firstDivergence":{"step":"- process started (foreground; applicationState inactive) + process started (foreground; "#,
      #"applicationState background)","after":"launch"}}"#,
    ]
    #expect(change.json(axis: comparison.axis).canonicalText == expected.joined())
    #expect(ComparisonTable(changes: [change]).html.contains(
      "<tr><td>memory warning</td><td>iOS 17: no scenes → scenes</td><td>- process started (foreground; applicationState inactive)"))
  }

  @Test func aPairThatAgreesGivesNoChange() throws {
    let (comparison, results) = try comparedRuns(.profiles, profiles: [16, 17], scenesBoth: false)
    let pairs = comparison.pairs(results)
    #expect(pairs.map { [$0.from.name, $0.to.name] } == [["memory warning [iOS 16]", "memory warning [iOS 17]"]])
    #expect(try comparison.compare(pairs[0].from, pairs[0].to) == nil)
    #expect(comparison.noChangeText(pairs: pairs.count) == "No run differs between neighbouring profiles (1 pair compared).")
  }

  /// A kept log that cannot be read is trouble, never "no difference".
  @Test func anUnreadableLogIsAnErrorNotNoChange() throws {
    let (comparison, results) = try comparedRuns(.profiles, profiles: [16, 17], scenesBoth: false)
    let pair = try #require(comparison.pairs(results).first)
    let path = try #require(pair.to.logPath)
    try FileManager.default.removeItem(atPath: path)
    #expect(throws: SuiteError("cannot compare \(try #require(pair.from.logPath)) with \(path): \(path): cannot open: No such file or directory")) {
      try comparison.compare(pair.from, pair.to)
    }
  }

  @Test func theAxisReadsWhatTheOptionSpells() {
    #expect(ComparisonAxis(argument: "sdk=26,27") == .sdk(from: 26, to: 27))
    #expect(ComparisonAxis(argument: "sdk=26,27")?.text == "sdk=26,27")
    #expect(ComparisonAxis(argument: "sdk=27,27") == nil)
    #expect(ComparisonAxis(argument: "sdk=11,27") == nil)
    #expect(ComparisonAxis(argument: "Scenes") == nil)
    #expect(ComparisonAxis(argument: "profiles")?.sdkVariants == [nil])
  }
}
