import Foundation
import Testing
import TestSupport

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
    // From the repository root (the folder above the fixtures holding .git), based on %SRCROOT%.
    #expect(r.out.contains(#""artifactLocation":{"uri":"Tests/AppScanTests/Fixtures/StoryboardApp/StoryboardApp/Info.plist","uriBaseId":"%SRCROOT%"},"region":{"startLine":1}"#))
  }

  /// The emitted app and scenarios pass luacheck with the repository's .luacheckrc (laid out as
  /// Scripts/apps and Scripts/scenarios, the folders it names) and run green; the app that
  /// registers its BGTasks from the scene delegate crashes at launch, as the Swift would.
  @Test(arguments: ["StoryboardApp", "SceneExtensionsApp", "SwiftUIAdaptorApp", "HelperRegistrationApp",
                    "SceneRegistrationApp", "ConditionalApp", "BinaryPlistApp", "GeneratedPlistApp"])
  func theEmittedAppPassesLuacheckAndRuns(_ name: String) throws {
    let dir = temp("scan-emit-" + name)
    try? FileManager.default.removeItem(atPath: dir)
    let scan = try lifesim(["scan", name, "--emit-app", dir, "--json"], cwd: fixtures)
    #expect(scan.status == 1)
    #expect(scan.err == "wrote \(dir)/app.lua\nwrote \(dir)/cold_launch.lua\nwrote \(dir)/home_and_return.lua\n")
    let lint = temp("scan-lint-" + name)
    try? FileManager.default.removeItem(atPath: lint)
    for folder in ["apps", "scenarios"] {
      try FileManager.default.createDirectory(atPath: "\(lint)/Scripts/\(folder)", withIntermediateDirectories: true)
    }
    try FileManager.default.copyItem(atPath: dir + "/app.lua", toPath: lint + "/Scripts/apps/app.lua")
    try FileManager.default.copyItem(atPath: dir + "/cold_launch.lua", toPath: lint + "/Scripts/scenarios/cold_launch.lua")
    let luacheck = try runProcess("/usr/bin/env", ["luacheck", "--config", repositoryRoot.path + "/.luacheckrc", "--no-color", "Scripts"], cwd: lint)
    #expect(luacheck.status == 0, "\(luacheck.out)")
    for scenario in ["cold_launch.lua", "home_and_return.lua"] {
      let run = try lifesim(["run", dir + "/" + scenario, "-q"])
      if name == "SceneRegistrationApp" {
        #expect(run.status == 1)
        #expect(run.out.contains("Terminations: crash (NSInternalInconsistencyException: All launch handlers must be registered before application finishes launching)"))
      } else {
        #expect(run.status == 0, "\(scenario): \(run.out)")
      }
    }
  }

  @Test func emitAppNeverOverwritesWithoutForce() throws {
    let dir = temp("scan-emit-keep")
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try "mine".write(toFile: dir + "/home_and_return.lua", atomically: false, encoding: .utf8)
    let refused = try lifesim(["scan", "StoryboardApp", "--emit-app", dir], cwd: fixtures)
    #expect(refused.status == 2)
    #expect(refused.err == "lifesim: \(dir)/home_and_return.lua: already exists; --emit-app writes nothing over existing files without --force\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["home_and_return.lua"])
    #expect(try String(contentsOfFile: dir + "/home_and_return.lua", encoding: .utf8) == "mine")
    let forced = try lifesim(["scan", "StoryboardApp", "--emit-app", dir, "--force"], cwd: fixtures)
    #expect(forced.status == 1)
    #expect(try String(contentsOfFile: dir + "/home_and_return.lua", encoding: .utf8).hasPrefix("-- Written by `lifesim scan --emit-app`"))
  }

  /// Even with --force, an emitted file never lands on a scanned source (a link to it), and a
  /// folder that holds no Swift is trouble, not a green scan.
  @Test func emitAppNeverWritesOverAnInputAndAScanOfNothingIsTrouble() throws {
    let dir = temp("scan-emit-input")
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let source = fixtures + "/StoryboardApp/StoryboardApp/AppDelegate.swift"
    let before = try String(contentsOfFile: source, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: dir + "/app.lua", withDestinationPath: source)
    let refused = try lifesim(["scan", "StoryboardApp", "--emit-app", dir, "--force"], cwd: fixtures)
    #expect(refused.status == 2)
    #expect(refused.err == "lifesim: \(dir)/app.lua: is the input StoryboardApp/StoryboardApp/AppDelegate.swift; refusing to write over it, even with --force\n")
    #expect(try String(contentsOfFile: source, encoding: .utf8) == before)
    let empty = temp("scan-nothing")
    try? FileManager.default.removeItem(atPath: empty)
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    let nothing = try lifesim(["scan", empty])
    #expect(nothing.status == 2)
    #expect(nothing.err == "lifesim: \(empty): no Swift file found (build folders, Pods and Carthage are skipped); give the app's source folder\n")
  }
}
