@testable import AppScan
import Foundation
import Testing
import TestSupport

/// Reading a repository right: a project's targets, their files and Info.plists, a
/// preprocessed plist, and the apps of a tree without a project.
@Suite struct ProjectReadingTests {
  @Test func eachIOSAppTargetIsAnAppAndTheOthersAreListedAsWhatTheyAre() throws {
    let result = try AppScanner.scan([fixtures + "/MultiTargetRepo"])
    #expect(result.apps.map(\.target) == ["Notes", "NotesLite"])
    #expect(result.apps.map { $0.plistFacts.map { ($0.path as NSString).lastPathComponent } } == ["Notes-Info.plist", "Info-Lite.plist"])
    #expect(result.others.map { "\($0.name) \($0.kind.rawValue)" } == ["ShareExtension app_extension", "NotesWatch watch_app", "MacHelper macos_app"])
    // Each app's own finding, though both are AppDelegate.applicationDidEnterBackground.
    #expect(result.diagnostics.map { "\($0.target) \($0.code) \(($0.place.file as NSString).lastPathComponent):\($0.place.line)" }
      == ["Notes bgtask_expiration_missing AppDelegate.swift:7", "Notes handler_never_called AppDelegate.swift:14", "NotesLite handler_never_called AppDelegate.swift:14"])
    // The macOS helper's and the watch app's notification delegates are theirs, not the apps'.
    #expect(result.apps.allSatisfy { $0.notificationDelegate == nil })
  }

  @Test func withoutAProjectTwoMainDelegatesAreTwoApps() throws {
    let root = temporaryPath("appscan", "no-project")
    try FileManager.default.createDirectory(atPath: (root as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: fixtures + "/MultiTargetRepo", toPath: root)
    try FileManager.default.removeItem(atPath: root + "/Notes.xcodeproj")
    let result = try AppScanner.scan([root])
    #expect(result.apps.map(\.target) == ["Notes", "NotesLite"])
    #expect(result.apps.map { ($0.plistFacts?.path as NSString?)?.lastPathComponent } == ["Notes-Info.plist", "Info-Lite.plist"])
    // The shared folder belongs to both apps; each app delegate to its own.
    #expect(result.apps.map { $0.files.swift.map { ($0 as NSString).lastPathComponent } }
      == [["AppDelegate.swift", "SceneDelegate.swift", "SyncEngine.swift"], ["AppDelegate.swift", "SceneDelegate.swift", "SyncEngine.swift"]])
    #expect(result.others.map { "\($0.name) \($0.kind.rawValue)" } == ["MacHelper macos_app", "NotesWatch watch_app", "ShareExtension app_extension"])
  }

  @Test func targetKeepsOneTargetAndAnUnknownOneSaysWhichThereAre() throws {
    let result = try AppScanner.scan([fixtures + "/MultiTargetRepo"], target: "NotesLite")
    #expect(result.apps.map(\.target) == ["NotesLite"] && result.others.isEmpty)
    #expect(throws: ScanTrouble("\(fixtures)/MultiTargetRepo: no target named Lite; the targets are Notes, NotesLite, ShareExtension, NotesWatch, MacHelper")) {
      try AppScanner.scan([fixtures + "/MultiTargetRepo"], target: "Lite")
    }
  }

  @Test func aFolderWithNoAppIsTrouble() throws {
    let root = temporaryPath("appscan", "no-app")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try "struct Money { var cents: Int }".write(toFile: root + "/Money.swift", atomically: false, encoding: .utf8)
    #expect(throws: ScanTrouble("no app found in \(root) (no app delegate, scene delegate, SwiftUI App, Info.plist or Xcode project); give the iOS app's folder")) {
      try AppScanner.scan([root])
    }
    try "@main final class Helper: NSObject, NSApplicationDelegate {}".write(toFile: root + "/Helper.swift", atomically: false, encoding: .utf8)
    #expect(throws: ScanTrouble("no app found in \(root) (only macOS app \((root as NSString).lastPathComponent)); give the iOS app's folder")) {
      try AppScanner.scan([root])
    }
  }

  @Test func aPreprocessedPlistKeepsTheBranchItsMacrosSelectAndSaysWhichItCouldNotDecide() throws {
    let app = try AppScanner.scan([fixtures + "/PreprocessedPlistApp"]).apps[0]
    #expect(app.permittedIdentifiers == ["com.example.reader.refresh", "com.example.reader.test"])
    #expect(app.plistFacts?.preprocessing?.undecided == ["#ifdef TESTING"])
    #expect(app.plistFacts?.preprocessing?.includesSkipped == true)
    #expect(app.plistFacts?.permittedIdentifiers.map(\.line) == [11, 14])
  }

  @Test func thePreprocessorEvaluatesConditionsInThreeValues() throws {
    let text = "a\n#define LOCAL 2\n#if LOCAL == 2 && !defined(OFF)\nb\n#elif UNKNOWN\nc\n#else\nd\n#endif\n#ifndef ON\ne\n#endif\nf"
    let closed = InfoPlistPreprocessor(macros: ["ON": "1"], closedWorld: true)
    #expect(try closed.run(text).get().text == "a\n\n\nb\n\n\n\n\n\n\n\n\nf")
    let open = InfoPlistPreprocessor(macros: [:], closedWorld: false)
    let both = try open.run(text).get()
    #expect(both.text == "a\n\n\nb\n\nc\n\nd\n\n\ne\n\nf")
    #expect(both.undecided == ["#if LOCAL == 2 && !defined(OFF)", "#elif UNKNOWN", "#ifndef ON"])
    // A macro the configurations disagree on is unknown; in a closed world the others stay known.
    let disagreeing = InfoPlistPreprocessor(macros: [:], closedWorld: true, unknown: ["TESTING"])
    let mixed = try disagreeing.run("#ifdef TESTING\na\n#endif\n#ifdef OTHER\nb\n#endif").get()
    #expect(mixed.text == "\na\n\n\n\n" && mixed.undecided == ["#ifdef TESTING"])
    #expect(throws: ScanTrouble("line 1: #endif without #if")) { try open.run("#endif").get() }
    #expect(throws: ScanTrouble("#if without #endif")) { try open.run("#if A\n").get() }
    let deep = String(repeating: "#if A\n", count: 300)
    #expect(throws: ScanTrouble("line 257: #if nests deeper than 256 levels")) { try open.run(deep).get() }
  }

  @Test func theProjectReaderNamesTheLineOfWhatIsWrong() throws {
    #expect(throws: ScanTrouble("line 3: expected ';'")) { try OldStylePlistReader.read("{\n a = b\n c = d; }").get() }
    #expect(throws: ScanTrouble("line 1: nests deeper than 128 levels")) {
      try OldStylePlistReader.read(String(repeating: "(", count: 1_000_000)).get()
    }
    #expect(try OldStylePlistReader.read(#"{ a = ( "x\"y", b, ); /* c */ d = <0a0b>; // e"# + "\n}").get()
      == .dictionary(["a": .array([.string("x\"y"), .string("b")]), "d": .string("<0a0b>")]))
  }

  @Test func xcconfigSettingsAreLayeredUnderTheTargetsOwn() {
    let files = [
      "P/App.xcconfig": "#include \"Base.xcconfig\"\n#include? \"Missing.xcconfig\"\nINFOPLIST_FILE = App/Info.plist\nOTHER = $(inherited) two // note\nSDKROOT = iphoneos;\nX[sdk=macosx*] = no",
      "P/Base.xcconfig": "OTHER = one\nPRODUCT_BUNDLE_IDENTIFIER = com.example.app",
    ]
    var reader = XCConfigReader(readFile: { files[$0] })
    let settings = reader.settings("P/App.xcconfig", base: [:])
    #expect(settings == ["INFOPLIST_FILE": "App/Info.plist", "OTHER": "one two", "SDKROOT": "iphoneos", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app"])
  }

  @Test func aRelativeURIThatLooksLikeASchemeStartsWithDotSlash() {
    #expect(ScanReport.uri("javascript:alert(1)/App.swift") == "./javascript:alert(1)/App.swift")
    #expect(ScanReport.uri("App/a:b.swift") == "App/a:b.swift")
  }
}

/// What counts as adopting scenes, read from the Info.plist and the app delegate: each row of
/// the table the runs apply (iOS 27, SDK 27), written out here rather than computed from it.
@Suite struct SceneAdoptionScanTests {
  static let manifests = [
    "none": "",
    "empty": "<key>UIApplicationSceneManifest</key><dict><key>UIApplicationSupportsMultipleScenes</key><false/></dict>",
    "configured": "<key>UIApplicationSceneManifest</key><dict><key>UISceneConfigurations</key><dict><key>UIWindowSceneSessionRoleApplication</key><array><dict><key>UISceneConfigurationName</key><string>Default</string></dict></array></dict></dict>",
  ]

  @Test(arguments: [
    ("none", false, false, true), ("none", true, false, true),
    ("empty", false, false, true), ("empty", true, true, false),
    ("configured", false, true, false), ("configured", true, true, false),
  ])
  func eachRowOfTheTable(_ manifest: String, _ method: Bool, _ scenes: Bool, _ trapped: Bool) throws {
    let root = temporaryPath("appscan-adoption", "\(manifest)-\(method)")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    let configuration = method ? """
        func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
                         options: UIScene.ConnectionOptions) -> UISceneConfiguration {
          UISceneConfiguration(name: "Default", sessionRole: connectingSceneSession.role)
        }
      """ : ""
    try "@main class AppDelegate: UIResponder, UIApplicationDelegate {\n\(configuration)\n}".write(toFile: root + "/AppDelegate.swift", atomically: false, encoding: .utf8)
    try "<plist><dict><key>LSRequiresIPhoneOS</key><true/>\(Self.manifests[manifest]!)</dict></plist>".write(toFile: root + "/Info.plist", atomically: false, encoding: .utf8)
    let app = try AppScanner.scan([root]).apps[0]
    #expect(app.sceneManifest?.rawValue == manifest)
    #expect(app.scenes == scenes)
    #expect(app.diagnostics.map(\.code) == (trapped ? ["scene_lifecycle_required"] : []))
  }
}

@Suite struct DeploymentTargetTests {
  /// An app that still supports iOS 12 keeps its app-delegate methods rightly: no handler_never_called.
  @Test func belowIOS13TheAppDelegatesMethodsAreNotNeverCalled() throws {
    let project = try String(contentsOfFile: fixtures + "/MultiTargetRepo/Notes.xcodeproj/project.pbxproj", encoding: .utf8)
    for (target, expected) in [("12.4", ["bgtask_expiration_missing"]), ("13.0", ["bgtask_expiration_missing", "handler_never_called"])] {
      let root = temporaryPath("appscan-deployment", target)
      try FileManager.default.createDirectory(atPath: (root as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: fixtures + "/MultiTargetRepo", toPath: root)
      try project.replacingOccurrences(of: "IPHONEOS_DEPLOYMENT_TARGET = 15.0", with: "IPHONEOS_DEPLOYMENT_TARGET = \(target)")
        .write(toFile: root + "/Notes.xcodeproj/project.pbxproj", atomically: false, encoding: .utf8)
      let notes = try AppScanner.scan([root], target: "Notes").apps[0]
      #expect(notes.deploymentTarget == target)
      #expect(notes.diagnostics.map(\.code) == expected)
    }
  }
}

@Suite struct SuppressionTests {
  @Test func aSuppressionRemovesItsDiagnosticAndAStaleOrUnexplainedOneIsAWarning() throws {
    let root = temporaryPath("appscan-suppress", "App")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try """
      @main class AppDelegate: UIResponder, UIApplicationDelegate {
        func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
                         options: UIScene.ConnectionOptions) -> UISceneConfiguration { fatalError() }
        // lifesim:ignore handler_never_called — still shipped to iOS 12 users through a second target
        func applicationDidEnterBackground(_ application: UIApplication) {}
        func applicationWillEnterForeground(_ application: UIApplication) {} // lifesim:ignore handler_never_called
        // lifesim:ignore task_open_after_expiration: nothing here any more
        func applicationDidBecomeActive(_ application: UIApplication) {}
      }
      """.write(toFile: root + "/AppDelegate.swift", atomically: false, encoding: .utf8)
    try "<plist><dict><key>UIApplicationSceneManifest</key><dict/></dict></plist>".write(toFile: root + "/Info.plist", atomically: false, encoding: .utf8)
    let result = try AppScanner.scan([root])
    #expect(result.suppressed == 2)
    #expect(result.diagnostics.map { "\($0.place.line) \($0.code)" }
      == ["6 suppression_without_reason", "7 suppression_unused", "8 handler_never_called"])
    #expect(result.textLines.contains("2 diagnostics suppressed by lifesim:ignore"))
  }
}
