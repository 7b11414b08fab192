import AppScan
import Foundation
import Testing
import TestSupport

@Suite struct ScanLimitTests {
  private func folder(_ name: String, files: [String: String]) throws -> String {
    let root = temporaryPath("appscan", name)
    for (path, text) in files {
      let full = root + "/" + path
      try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try text.write(toFile: full, atomically: false, encoding: .utf8)
    }
    return root
  }

  @Test func aMissingPathIsTroubleNamingIt() {
    #expect(throws: ScanTrouble("/nonexistent/App: no such file or folder")) { try AppScanner.scan(["/nonexistent/App"]) }
  }

  /// A scan that reads no Swift cannot call the app fine: a wrong folder or file is trouble.
  @Test func aScanThatFindsNoSwiftOrIsGivenAnotherFileIsTrouble() throws {
    let empty = try folder("no-swift", files: ["README.md": "# app", "Pods/X/X.swift": "class X {}"])
    #expect(throws: ScanTrouble("\(empty): no Swift file found (build folders, Pods and Carthage are skipped); give the app's source folder")) {
      try AppScanner.scan([empty])
    }
    let objc = try folder("objc", files: ["Main.m": "int main() {}"]) + "/Main.m"
    #expect(throws: ScanTrouble("\(objc): not a file a scan reads (a .swift file, an Info.plist or other .plist, a .storyboard, a project.pbxproj, or a folder)")) {
      try AppScanner.scan([objc])
    }
  }

  @Test func aTreeOfManyOtherFilesStopsTheScan() throws {
    let root = try folder("entries", files: ["a.txt": "", "b.txt": "", "c.txt": "", "App.swift": ""])
    var limits = ScanLimits()
    limits.maxEntries = 3
    #expect(throws: ScanTrouble("\(root): more than 3 entries under the scanned folders; scan a smaller folder")) { try AppScanner.scan([root], limits: limits) }
  }

  @Test func tooManyFilesStopTheScan() throws {
    let root = try folder("many", files: ["a.swift": "", "b.swift": "", "c.swift": ""])
    var limits = ScanLimits()
    limits.maxFiles = 2
    #expect(throws: ScanTrouble("\(root): more than 2 source files; scan a smaller folder")) { try AppScanner.scan([root], limits: limits) }
  }

  @Test func aFileOverTheSizeLimitIsNamedAndNotRead() throws {
    let root = try folder("large", files: ["Big.swift": String(repeating: "// x\n", count: 100), "Info.plist": "not a plist",
                                           "App.swift": "@main class AppDelegate: UIResponder, UIApplicationDelegate {}"])
    var limits = ScanLimits()
    limits.maxFileBytes = 100
    let report = try AppScanner.scan([root], limits: limits)
    #expect(report.troubles.map(\.file) == [root + "/Big.swift", root + "/Info.plist"])
    #expect(report.troubles.map(\.reason) == ["larger than 100 bytes; not read", "not a property list (XML or binary)"])
    #expect(report.status == 2)
  }

  @Test func foldersNestedPastTheLimitStopTheScan() throws {
    let root = try folder("deep", files: ["a/b/c/d.swift": ""])
    var limits = ScanLimits()
    limits.maxDepth = 1
    #expect(throws: ScanTrouble("\(root)/a/b: folders nest deeper than 1 levels")) { try AppScanner.scan([root], limits: limits) }
  }

  @Test func anUnresolvedIdentifierGivesNoDiagnostic() throws {
    let root = try folder("unresolved", files: [
      "AppDelegate.swift": """
        class AppDelegate: UIResponder, UIApplicationDelegate {
          func sceneHelper() { BGTaskScheduler.shared.register(forTaskWithIdentifier: makeID(), using: nil) { $0.setTaskCompleted(success: true) } }
        }
        """,
      "Info.plist": "<plist><dict><key>BGTaskSchedulerPermittedIdentifiers</key><array><string>a</string></array><key>UIApplicationSceneManifest</key><dict><key>UISceneConfigurations</key><dict><key>x</key><array/></dict></dict></dict></plist>",
    ])
    let report = try AppScanner.scan([root]).apps[0]
    #expect(report.registrations.map(\.identifier) == [nil])
    #expect(report.diagnostics.map(\.code) == [])
  }
}
