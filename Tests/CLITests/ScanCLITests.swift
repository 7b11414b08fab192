import Foundation
import Testing

/// `lifesim scan` as a user runs it: the fixtures of AppScanTests, from their folder.
@Suite struct ScanCLITests {
  private let fixtures = repositoryRoot.appendingPathComponent("Tests/AppScanTests/Fixtures").path

  @Test func jsonIsTheExpectedReportAndExitsOneWithDiagnostics() throws {
    let r = try lifesim(["scan", "--json", "SceneRegistrationApp"], cwd: fixtures)
    let expected = try String(contentsOfFile: fixtures + "/SceneRegistrationApp/expected.jsonl", encoding: .utf8)
    #expect(r.status == 1)
    #expect(r.out == expected)
    #expect(r.err == "")
  }

  @Test func aMissingPathIsTroubleWithAnEndLine() throws {
    let r = try lifesim(["scan", "--json", "NoSuchApp"], cwd: fixtures)
    #expect(r.status == 2)
    #expect(r.out == #"{"kind":"end","command":"scan","status":2,"error":"NoSuchApp: no such file or folder"}"# + "\n")
    #expect(r.err == "lifesim: NoSuchApp: no such file or folder\n")
  }

  @Test func noDiagnosticsExitsZero() throws {
    let dir = try scriptFolder("scan-clean", [
      "AppDelegate.swift": """
        @main class AppDelegate: UIResponder, UIApplicationDelegate {
          func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool { true }
          func application(_ application: UIApplication, configurationForConnecting session: UISceneSession, options: UIScene.ConnectionOptions) -> UISceneConfiguration { .init() }
        }
        """,
    ])
    let r = try lifesim(["scan", dir])
    #expect(r.status == 0)
    #expect(r.out.hasSuffix("no diagnostics\n"))
  }

  /// Names and strings from the scanned source reach the terminal with control characters visible.
  @Test func textMakesControlCharactersVisible() throws {
    let dir = try scriptFolder("scan-escape", [
      "AppDelegate.swift": """
        @main class AppDelegate: UIResponder, UIApplicationDelegate {
          func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "a\u{1B}]0;owned\u{07}", using: nil) { _ in }
            return true
          }
        }
        """,
    ])
    let r = try lifesim(["scan", dir])
    #expect(r.out.contains(#"BGTask "a\u{1B}]0;owned\u{7}" registered from application(_:didFinishLaunchingWithOptions:)"#))
    #expect(!r.out.contains("\u{1B}"))
  }

  @Test func sarifIsOneJSONObject() throws {
    let r = try lifesim(["scan", "--format", "sarif", "StoryboardApp"], cwd: fixtures)
    #expect(r.status == 1)
    #expect(r.out.hasPrefix(#"{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"tool":{"driver":{"name":"lifesim scan""#))
    #expect(r.out.contains(#""artifactLocation":{"uri":"StoryboardApp/StoryboardApp/Info.plist"},"region":{"startLine":1}"#))
  }
}
