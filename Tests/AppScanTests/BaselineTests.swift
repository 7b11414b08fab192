@testable import AppScan
import Foundation
import JSON
import Testing
import TestSupport

/// Adopting the scan in CI: a baseline of an earlier run, fingerprints that survive lines
/// moving, SARIF paths from the repository root, and paths left out with --exclude.
@Suite struct BaselineTests {
  /// A copy of DeferredSetupApp inside a repository (a `.git` folder above it).
  private func repository(_ name: String) throws -> (root: String, app: String) {
    let root = temporaryPath("appscan-baseline", name)
    try FileManager.default.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: fixtures + "/DeferredSetupApp", toPath: root + "/DeferredSetupApp")
    return (root, root + "/DeferredSetupApp")
  }

  private func insertLines(_ count: Int, atTopOf file: String) throws {
    let text = try String(contentsOfFile: file, encoding: .utf8)
    try (String(repeating: "// moved\n", count: count) + text).write(toFile: file, atomically: false, encoding: .utf8)
  }

  @Test func aBaselineOfTheSameTreeExitsZeroAndANewFindingOne() throws {
    let (_, app) = try repository("json")
    let first = try AppScanner.scan([app])
    #expect(first.status == 1)
    let baselineFile = app + ".baseline.jsonl"
    try first.jsonLines.map(\.canonicalText).joined(separator: "\n").write(toFile: baselineFile, atomically: false, encoding: .utf8)
    let source = app + "/Inbox/AppDelegate.swift"
    try insertLines(5, atTopOf: source)
    var again = try AppScanner.scan([app])
    again.baseline = try ScanBaseline.read(baselineFile).get()
    #expect(again.status == 0 && again.failing.isEmpty && again.diagnostics.count == first.diagnostics.count)
    #expect(again.diagnostics.map(\.place.line) == first.diagnostics.map { $0.place.line + 5 })
    // One new finding: an app-delegate method a scene app never hears.
    let text = try String(contentsOfFile: source, encoding: .utf8)
    try text.replacingOccurrences(of: "  @objc func registerCleanup() {", with: "  func applicationDidEnterBackground(_ application: UIApplication) {}\n\n  @objc func registerCleanup() {")
      .write(toFile: source, atomically: false, encoding: .utf8)
    var changed = try AppScanner.scan([app])
    changed.baseline = again.baseline
    #expect(changed.status == 1 && changed.failing.map(\.code) == ["handler_never_called"])
    #expect(changed.baseline?.absent(from: changed).isEmpty == true)
  }

  @Test func sarifPathsAreFromTheRepositoryRootWithFingerprintsThatSurviveMovedLines() throws {
    let (root, app) = try repository("sarif")
    let before = try AppScanner.scan([app])
    #expect(before.repositoryRoot == root)
    let results = try #require(before.sarif(toolVersion: "1")["runs"]?.arrayValue?.first?["results"]?.arrayValue)
    let locations = results.compactMap { $0["locations"]?.arrayValue?.first?["physicalLocation"]?["artifactLocation"] }
    #expect(locations.count == results.count && !results.isEmpty)
    #expect(locations.allSatisfy { $0["uri"]?.stringValue == "DeferredSetupApp/Inbox/AppDelegate.swift" && $0["uriBaseId"]?.stringValue == "%SRCROOT%" })
    try insertLines(3, atTopOf: app + "/Inbox/AppDelegate.swift")
    let after = try AppScanner.scan([app])
    #expect(after.diagnostics.map(\.fingerprint) == before.diagnostics.map(\.fingerprint))
    #expect(Set(before.diagnostics.compactMap(\.fingerprint)).count == before.diagnostics.count)
    // The SARIF log is a baseline too: the same findings are unchanged.
    let sarifFile = root + "/before.sarif"
    try before.sarif(toolVersion: "1").canonicalText.write(toFile: sarifFile, atomically: false, encoding: .utf8)
    var compared = after
    compared.baseline = try ScanBaseline.read(sarifFile).get()
    #expect(compared.status == 0)
  }

  @Test func aBaselineThatIsNoScanOutputIsTroubleNamingItsLine() throws {
    let file = temporaryPath("appscan-baseline", "bad.jsonl")
    try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try "{\"kind\":\"app\"}\n{\"kind\":\"diagnostic\",\"code\":1}\n".write(toFile: file, atomically: false, encoding: .utf8)
    #expect(throws: ScanTrouble("\(file):2: a diagnostic line without its code, target, file, line and fingerprint")) { try ScanBaseline.read(file).get() }
  }

  @Test func excludedPathsAreNotRead() throws {
    let result = try AppScanner.scan([fixtures + "/MultiTargetRepo"], exclude: ["NotesLite", "Mac*"])
    // The project still declares NotesLite: it is listed, with only the shared file it compiles.
    #expect(result.apps.map { "\($0.target) \($0.files.swift.map { ($0 as NSString).lastPathComponent })" }
      == ["Notes [\"AppDelegate.swift\", \"SceneDelegate.swift\", \"SyncEngine.swift\"]", "NotesLite [\"SyncEngine.swift\"]"])
    #expect(!result.files.swift.contains { $0.contains("/NotesLite/") || $0.contains("/MacHelper/") })
  }
}
